import type { Editor } from '@tiptap/core';
import type { EditorState } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';
import { useEditorState } from '@tiptap/react';
import { BubbleMenu } from '@tiptap/react/menus';
import type { JSX } from 'react';
import { ToolbarIcon } from './editor-icons.js';
import { markToggleState } from './toolbar-state.js';

/**
 * When the bubble shows (spec 001 §2 "Bubble toolbar", E23): a selection with text in a focused (or
 * bubble-focused), editable editor. Module-level so the menu's options never change identity.
 */
export function shouldShowBubble(props: {
  editor: Editor;
  element: HTMLElement;
  view: EditorView;
  state: EditorState;
  from: number;
  to: number;
}): boolean {
  const { editor, element, view, state, from, to } = props;
  if (!editor.isEditable || state.selection.empty) return false;
  const focused = view.hasFocus() || element.contains(document.activeElement);
  return focused && state.doc.textBetween(from, to).length > 0;
}

/** Bold and Italic over a selection (the AI actions dropdown comes later). */
export function BubbleToolbar(props: { editor: Editor }): JSX.Element {
  const { editor } = props;
  const marks = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      bold: markToggleState(current, 'bold'),
      italic: markToggleState(current, 'italic'),
    }),
  });
  const buttons = [
    { mark: 'bold', label: 'Bold', state: marks.bold },
    { mark: 'italic', label: 'Italic', state: marks.italic },
  ] as const;
  return (
    <BubbleMenu editor={editor} shouldShow={shouldShowBubble}>
      <div
        role="toolbar"
        aria-label="Selection formatting"
        className="pw-bubble join rounded-box bg-base-200 p-1 shadow-lg"
      >
        {buttons.map(({ mark, label, state }) => (
          <button
            key={mark}
            type="button"
            className={`btn btn-ghost btn-sm btn-square join-item ${state.active ? 'btn-active' : ''}`}
            aria-label={label}
            title={label}
            aria-pressed={state.active}
            disabled={!state.enabled}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => editor.chain().focus().toggleMark(mark).run()}
          >
            <ToolbarIcon name={mark} />
          </button>
        ))}
      </div>
    </BubbleMenu>
  );
}
