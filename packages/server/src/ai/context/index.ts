/** The context engine (`SPEC.md` CX1–CX12): what one chat turn's prompt is made of. */
export {
  type AssembledContext,
  assembleChatContext,
  CONTEXT_PART_NAMES,
  type ContextInput,
  type ContextPart,
  type ContextPartName,
  type ContextScope,
  ContextScopeError,
  type ContextSettings,
  DIGEST_BUDGET_SHARE,
  DIGEST_TOKENS_PER_SECTION,
} from './assemble-context.js';
export { type LoadContextRequest, loadContextInput } from './load-context-input.js';
export { countTokens, TOKEN_ENCODING } from './token-count.js';
