import type { Editor } from '@tiptap/core';
import type { EditorState } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';
import { useEditorState } from '@tiptap/react';
import { BubbleMenu } from '@tiptap/react/menus';
import { type JSX, type RefObject, useEffect, useRef, useSyncExternalStore } from 'react';
import type { AiActionRuns } from './ai-action-runs.js';
import { canTransformSelection } from './ai-actions.js';
import { type AiActionRefusal, AiActionsMenu } from './ai-actions-menu.js';
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

/**
 * E23: Tab in the text, while the bubble shows, goes into it. Left to the browser, Tab would go to the
 * first control drawn on the canvas (a subsection's Move buttons), and the bubble would close with the
 * editor's focus: a keyboard user could never reach it.
 */
function useTabIntoBubble(editor: Editor, toolbar: RefObject<HTMLDivElement | null>): void {
  useEffect(() => {
    const text = editor.view.dom;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Tab' || event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) return;
      const bubble = toolbar.current;
      // Shown means laid out and visible: the menu hides its element rather than removing it.
      if (!bubble?.isConnected || bubble.getClientRects().length === 0) return;
      if (getComputedStyle(bubble).visibility === 'hidden') return;
      const first = bubble.querySelector<HTMLButtonElement>('button:not(:disabled)');
      if (!first) return;
      event.preventDefault();
      first.focus();
    };
    text.addEventListener('keydown', onKeyDown);
    return () => text.removeEventListener('keydown', onKeyDown);
  }, [editor, toolbar]);
}

/**
 * Bold, Italic and the "AI actions" dropdown over a selection (E23, E31–E34, E43–E45). An action's answer is
 * reviewed in the text, as suggestions, not here.
 */
export function BubbleToolbar(props: {
  editor: Editor;
  /** The AI actions of this editor (a document's); absent for a blueprint, which has none. */
  ai?: { runs: AiActionRuns; availability: AiActionRefusal; offline: boolean } | null;
}): JSX.Element {
  const { editor, ai = null } = props;
  const toolbar = useRef<HTMLDivElement>(null);
  useTabIntoBubble(editor, toolbar);
  const marks = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      bold: markToggleState(current, 'bold'),
      italic: markToggleState(current, 'italic'),
      ai: canTransformSelection(current),
    }),
  });
  const buttons = [
    { mark: 'bold', label: 'Bold', state: marks.bold },
    { mark: 'italic', label: 'Italic', state: marks.italic },
  ] as const;
  return (
    <BubbleMenu editor={editor} shouldShow={shouldShowBubble}>
      <div
        ref={toolbar}
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
        {ai !== null && <BubbleAiActions ai={ai} enabled={marks.ai} />}
      </div>
    </BubbleMenu>
  );
}

function BubbleAiActions(props: {
  ai: { runs: AiActionRuns; availability: AiActionRefusal; offline: boolean };
  enabled: boolean;
}): JSX.Element {
  const { runs, availability, offline } = props.ai;
  const { running } = useSyncExternalStore(runs.subscribe, runs.getSnapshot);
  return (
    <AiActionsMenu
      enabled={props.enabled && running === null}
      onChoose={(request) => runs.run(request)}
      availability={availability}
      offline={offline}
    />
  );
}
