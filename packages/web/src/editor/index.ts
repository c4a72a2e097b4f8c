/**
 * The plan editor: a Tiptap 3 editor on the SDK's schema with the section/subsection structure
 * enforced, its toolbar, bubble toolbar and canvas. Rules: `src/editor/SPEC.md`.
 */

export { type AiActionRequest, AiActionRuns, type AiActionRunsSnapshot } from './ai-action-runs.js';
export type { AiActionRefusal } from './ai-actions-menu.js';
export { BubbleToolbar } from './bubble-toolbar.js';
export type { CanvasActions } from './canvas-actions.js';
export {
  type CommentMark,
  commentAnchorOfSelection,
  commentThreadAt,
  revealCommentRange,
  setCommentMarks,
} from './comment-highlights.js';
export { type CursorContext, cursorContext } from './cursor-context.js';
export { loadEditorContent, revealInEditor, setSubsectionFinalizedInEditor } from './editor-commands.js';
export { EditorToolbar } from './editor-toolbar.js';
export { setStructureHints } from './hint-decorations.js';
export { PlanEditorCanvas } from './plan-editor-canvas.js';
export {
  revealSuggestion,
  SUGGESTION_LAYER_TEXTS,
  type SuggestionLayerActions,
  setSuggestionLayer,
} from './suggestion-layer.js';
export { type PlanEditorOptions, usePlanEditor } from './use-plan-editor.js';
