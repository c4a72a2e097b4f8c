/**
 * `@planwright/sdk/model`: the document model. The Tiptap extensions and ProseMirror schema of
 * Planwright content trees, their JSON types, normalisation, outline and progress, and the pure
 * structure commands. Rules: `src/model/SPEC.md`.
 *
 * @module @planwright/sdk/model
 */

export {
  createDocumentContent,
  type NewSectionContent,
  type NewSubsectionContent,
} from './create-document-content.js';
export {
  type BlockJson,
  type BlockquoteJson,
  type BulletListJson,
  type CodeBlockJson,
  type DocumentJson,
  type HardBreakJson,
  type HeadingJson,
  type HorizontalRuleJson,
  INDENT_STEP_PX,
  type InlineJson,
  type LinkAttrs,
  type LinkMarkJson,
  type ListItemJson,
  MAX_DOCUMENT_DEPTH,
  MAX_DOCUMENT_NODES,
  MAX_PARAGRAPH_INDENT,
  type MarkJson,
  type MarkName,
  NEW_SECTION_TITLE,
  NEW_SUBSECTION_TITLE,
  NODE_ID_TYPES,
  type NodeIdAttrs,
  type NodeJson,
  type NodeName,
  type OrderedListJson,
  type ParagraphJson,
  type PlainTextJson,
  type SectionAttrs,
  type SectionHeadingJson,
  type SectionJson,
  type SimpleMarkJson,
  type SubsectionAttrs,
  type SubsectionHeadingJson,
  type SubsectionJson,
  type TextJson,
  UNTITLED_SECTION,
  UNTITLED_SUBSECTION,
} from './document-json.js';
export { DocumentStructureError, type DocumentStructureErrorOptions } from './document-structure-error.js';
export {
  createPlanwrightExtensions,
  NodeIdAttribute,
  type NodeIdAttributeOptions,
  PLANWRIGHT_EXTENSIONS,
  PlanwrightDocument,
  type PlanwrightExtensionName,
  PlanwrightHeading,
  PlanwrightLink,
  PlanwrightParagraph,
  Section,
  SectionHeading,
  Subsection,
  SubsectionHeading,
} from './extensions.js';
export { BLOCKED_LINK_SCHEMES, isAllowedLinkHref, STANDARD_LINK_SCHEMES } from './link-href.js';
export { type GenerateId, isNodeId, isUuid } from './model-ids.js';
export {
  type NormalizeOptions,
  type NormalizeReport,
  type NormalizeResult,
  normalizeDocument,
  parseDocument,
} from './normalize-document.js';
export { type DocumentOutline, type OutlineSection, type OutlineSubsection, outlineOf } from './outline.js';
export {
  cleanPastedText,
  type PasteOptions,
  type PastePlan,
  type PasteTarget,
  pastedTitleText,
  planPaste,
} from './paste-rules.js';
export { type DocumentProgress, progressOf, progressPercent } from './progress.js';
export { getPlanwrightSchema } from './schema.js';
export {
  deleteSection,
  deleteSubsection,
  type InsertSubsectionOptions,
  insertSectionAfter,
  insertSubsection,
  type MoveDirection,
  moveSection,
  moveSectionTo,
  moveSubsection,
  moveSubsectionTo,
  type NewStructureOptions,
  renameSection,
  renameSubsection,
  replaceSectionContent,
  type StructureFailureReason,
  type StructureOptions,
  type StructureResult,
  setSubsectionFinalized,
} from './structure-commands.js';
