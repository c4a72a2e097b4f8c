import type { DocumentJson } from '@planwright/sdk/model';
import { mayDo } from '../../documents/document-access.js';
import type { Storage } from '../../storage/storage.js';
import { resolveGlobalSystemPrompt } from '../../system-prompt/global-system-prompt.js';
import type { ChatPromptMessage, ProviderInfo } from '../providers/ai-provider.js';
import type { ContextInput, ContextScope, ContextSettings } from './assemble-context.js';

/** What {@link loadContextInput} needs besides storage. */
export interface LoadContextRequest {
  documentId: string;
  /** The signed-in user: only their own document is read. */
  ownerId: string;
  scope: ContextScope;
  /** Earlier messages of the chat, oldest first (the chat store's). */
  history: ChatPromptMessage[];
  message: string;
  budgetTokens: number;
  provider: ProviderInfo;
  options: { webAccess: boolean; research: boolean };
  /** PLANWRIGHT_GLOBAL_SYSTEM_PROMPT (`config.globalSystemPrompt`), which wins over the stored one. */
  globalSystemPromptFromEnv: string | undefined;
}

// Stored trees went through `normalizeDocument` on write; anything else reads as an empty plan.
function storedTree(content: unknown): DocumentJson {
  if (typeof content === 'object' && content !== null && (content as { type?: unknown }).type === 'doc') {
    return content as DocumentJson;
  }
  return { type: 'doc', content: [] };
}

/**
 * Reads what a prompt is assembled from (CX11): the owned document and its tree, the settings of its
 * section and subsection rows, its blueprint's system prompt (none once the blueprint is deleted) and
 * the global system prompt in force. `undefined` when the user does not own the document (404).
 */
export async function loadContextInput(
  storage: Storage,
  request: LoadContextRequest,
): Promise<ContextInput | undefined> {
  const doc = await storage.documents.findFor(request.documentId, request.ownerId);
  if (!doc || !mayDo(doc, 'edit')) return undefined;
  const [rows, blueprint, global] = await Promise.all([
    storage.documents.sectionsOf(doc.id),
    doc.blueprintId === null ? Promise.resolve(undefined) : storage.blueprints.promptOf(doc.blueprintId),
    resolveGlobalSystemPrompt({
      fromEnvironment: request.globalSystemPromptFromEnv,
      appSettings: storage.appSettings,
    }),
  ]);
  const sections = new Map<string, ContextSettings>();
  const subsections = new Map<string, ContextSettings>();
  for (const row of rows) {
    sections.set(row.uuid.toLowerCase(), { developerPrompt: row.developerPrompt, userHint: row.userHint });
    for (const sub of row.subsections) {
      subsections.set(sub.uuid.toLowerCase(), {
        developerPrompt: sub.developerPrompt,
        userHint: sub.userHint,
      });
    }
  }
  return {
    globalSystemPrompt: global.prompt,
    blueprint: blueprint ? { title: blueprint.title, systemPrompt: blueprint.systemPrompt } : null,
    document: { uuid: doc.id, title: doc.title, content: storedTree(doc.content) },
    settings: { sections, subsections },
    scope: request.scope,
    history: request.history,
    message: request.message,
    budgetTokens: request.budgetTokens,
    provider: request.provider,
    options: request.options,
  };
}
