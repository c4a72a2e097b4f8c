import type { Editor } from '@tiptap/core';
import { EditorContent } from '@tiptap/react';
import type { JSX } from 'react';
import type { AiActionRuns } from './ai-action-runs.js';
import type { AiActionRefusal } from './ai-actions-menu.js';
import { BubbleToolbar } from './bubble-toolbar.js';
import './editor.css';

/**
 * The editing canvas (SPEC.md E24): the whole document, at least 280 px high, with the editor's styles
 * (placeholders, subsection controls, finalized look) and the bubble toolbar.
 */
export function PlanEditorCanvas(props: {
  editor: Editor | null;
  className?: string;
  /** The bubble's AI actions; null or absent for a blueprint. */
  ai?: { runs: AiActionRuns; availability: AiActionRefusal; offline: boolean } | null;
}): JSX.Element {
  const { editor, className, ai = null } = props;
  return (
    <div className={`pw-canvas ${className ?? ''}`.trim()}>
      {editor === null ? (
        <div className="pw-editor" aria-busy="true" />
      ) : (
        <>
          <EditorContent editor={editor} className="pw-editor" />
          <BubbleToolbar editor={editor} ai={ai} />
        </>
      )}
    </div>
  );
}
