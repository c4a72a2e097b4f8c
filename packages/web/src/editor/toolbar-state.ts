import type { Editor } from '@tiptap/core';
import { cursorContext } from './cursor-context.js';
import { canChangeIndent } from './paragraph-indent.js';

/** The marks with a toolbar button, in toolbar order, with their labels (E20). */
export const MARK_BUTTONS = [
  { mark: 'bold', label: 'Bold' },
  { mark: 'italic', label: 'Italic' },
  { mark: 'underline', label: 'Underline' },
  { mark: 'strike', label: 'Strike' },
  { mark: 'code', label: 'Code' },
] as const;

export type MarkButtonName = (typeof MARK_BUTTONS)[number]['mark'];

/** The block type dropdown (E21). Levels 1 and 2 are section and subsection titles, so not offered. */
export const BLOCK_TYPES = [
  { value: 'paragraph', label: 'Normal Text' },
  { value: 'heading3', label: 'Heading 3' },
  { value: 'heading4', label: 'Heading 4' },
  { value: 'blockquote', label: 'Quote' },
  { value: 'codeBlock', label: 'Code Block' },
  { value: 'horizontalRule', label: 'Horizontal Rule' },
  { value: 'hardBreak', label: 'Hard Break' },
] as const;

export type BlockTypeValue = (typeof BLOCK_TYPES)[number]['value'];

/** A toggle's state: pressed or not, and whether it can be used. */
export interface ToggleState {
  active: boolean;
  enabled: boolean;
}

/** Everything the toolbars show, as plain values so `useEditorState` can compare them. */
export interface ToolbarState {
  editable: boolean;
  canUndo: boolean;
  canRedo: boolean;
  /** Off when not editable, in a title, or in a finalized subsection (spec 001 §2). */
  formatting: boolean;
  /** New Subsection needs a section or subsection around the cursor (spec 001 §2). */
  canNewSubsection: boolean;
  /** The block the cursor is in, as a dropdown value (Horizontal Rule and Hard Break are only actions). */
  blockType: 'paragraph' | 'heading3' | 'heading4' | 'blockquote' | 'codeBlock';
  marks: Record<MarkButtonName, ToggleState>;
  bulletList: ToggleState;
  orderedList: ToggleState;
  canClearMarks: boolean;
  canClearNodes: boolean;
  canIndent: boolean;
  canOutdent: boolean;
}

const OFF: ToggleState = { active: false, enabled: false };

/** The toolbar of an editor that is not there (yet). */
export const INACTIVE_TOOLBAR: ToolbarState = {
  editable: false,
  canUndo: false,
  canRedo: false,
  formatting: false,
  canNewSubsection: false,
  blockType: 'paragraph',
  marks: { bold: OFF, italic: OFF, underline: OFF, strike: OFF, code: OFF },
  bulletList: OFF,
  orderedList: OFF,
  canClearMarks: false,
  canClearNodes: false,
  canIndent: false,
  canOutdent: false,
};

function blockTypeOf(editor: Editor): ToolbarState['blockType'] {
  const { $head } = editor.state.selection;
  const parent = $head.parent;
  if (parent.type.name === 'codeBlock') return 'codeBlock';
  if (parent.type.name === 'heading') return parent.attrs.level === 4 ? 'heading4' : 'heading3';
  for (let depth = $head.depth - 1; depth > 0; depth--) {
    const name = $head.node(depth).type.name;
    if (name === 'blockquote') return 'blockquote';
    if (name === 'section' || name === 'subsection') break;
  }
  return 'paragraph';
}

/** Whether formatting is possible at the cursor (E20): editable, not in a title, not finalized. */
function formattingAllowed(editor: Editor): boolean {
  if (!editor.isEditable) return false;
  const context = cursorContext(editor.state);
  return !context.inHeading && !context.inFinalized;
}

/** One mark's toggle state, for the bubble toolbar (cheaper than the whole {@link toolbarStateOf}). */
export function markToggleState(editor: Editor, mark: MarkButtonName): ToggleState {
  return {
    active: editor.isActive(mark),
    enabled: formattingAllowed(editor) && editor.can().toggleMark(mark),
  };
}

/**
 * The toolbar state of an editor: a `useEditorState` selector, so it runs after every transaction and
 * must stay cheap (it looks at the selection, never at the whole document).
 */
export function toolbarStateOf(editor: Editor): ToolbarState {
  const editable = editor.isEditable;
  const context = cursorContext(editor.state);
  const formatting = editable && !context.inHeading && !context.inFinalized;
  const can = () => editor.can();
  const toggle = (active: boolean, enabled: () => boolean): ToggleState => ({
    active,
    enabled: formatting && enabled(),
  });
  return {
    editable,
    canUndo: editable && can().undo(),
    canRedo: editable && can().redo(),
    formatting,
    canNewSubsection: editable && context.sectionUuid !== null,
    blockType: blockTypeOf(editor),
    marks: {
      bold: toggle(editor.isActive('bold'), () => can().toggleMark('bold')),
      italic: toggle(editor.isActive('italic'), () => can().toggleMark('italic')),
      underline: toggle(editor.isActive('underline'), () => can().toggleMark('underline')),
      strike: toggle(editor.isActive('strike'), () => can().toggleMark('strike')),
      code: toggle(editor.isActive('code'), () => can().toggleMark('code')),
    },
    bulletList: toggle(editor.isActive('bulletList'), () => can().toggleList('bulletList', 'listItem')),
    orderedList: toggle(editor.isActive('orderedList'), () => can().toggleList('orderedList', 'listItem')),
    canClearMarks: formatting,
    canClearNodes: formatting,
    canIndent: formatting && canChangeIndent(editor.state, 1),
    canOutdent: formatting && canChangeIndent(editor.state, -1),
  };
}
