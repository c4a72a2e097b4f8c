import { type DocumentJson, type GenerateId, getPlanwrightSchema } from '@planwright/sdk/model';
import type { Editor, EditorEvents } from '@tiptap/core';
import { type UseEditorOptions, useEditor } from '@tiptap/react';
import { useEffect, useRef, useState } from 'react';
import type { Awareness } from 'y-protocols/awareness';
import type * as Y from 'yjs';
import type { CanvasActions } from './canvas-actions.js';
import { type CursorContext, cursorContext } from './cursor-context.js';
import { documentFromContent } from './editor-commands.js';
import { STRUCTURE_META } from './editor-meta.js';
import { createPlanEditorExtensions } from './plan-editor-extensions.js';
import type { CanvasActionsRef } from './structure-node-views.js';

/** What {@link usePlanEditor} needs. Options may change between renders; the editor reads the latest. */
export interface PlanEditorOptions {
  /** The initial content; later content goes in with `loadEditorContent`. */
  content: DocumentJson;
  editable: boolean;
  canvas: CanvasActions;
  /**
   * Every doc-changing transaction that is a user edit (not `loadEditorContent`; finalize applied by
   * `setSubsectionFinalizedInEditor` is one). Must be cheap: it runs on every keystroke.
   */
  onEdit(editor: Editor): void;
  /** When the CursorContext changes (compared field by field, so not on every keystroke). */
  onCursorContext?(context: CursorContext): void;
  /** @internal Ids for pasted subsections and new blocks; tests pass a counter. */
  generateId?: GenerateId;
  /** A live plan: the editor edits this Yjs document (its content then comes from it, not `content`). */
  live?: { document: Y.Doc; awareness: Awareness };
}

const ACCESSIBLE_ATTRIBUTES = {
  'aria-label': 'Document editor',
  role: 'textbox',
  'aria-multiline': 'true',
  class: 'pw-editor-content',
};

function sameContext(a: CursorContext | null, b: CursorContext): boolean {
  return (
    a !== null &&
    a.sectionUuid === b.sectionUuid &&
    a.subsectionUuid === b.subsectionUuid &&
    a.inHeading === b.inHeading &&
    a.inFinalized === b.inFinalized
  );
}

/**
 * Creates the plan editor once (SPEC.md E19): Tiptap with the plan editor's extensions, rendered
 * immediately, and without a React render per transaction (the toolbars subscribe with
 * `useEditorState` selectors). Callbacks are read through a ref, so new closures on every render cost
 * nothing; `editable` is applied when it changes.
 */
export function usePlanEditor(options: PlanEditorOptions): Editor | null {
  const latest = useRef(options);
  latest.current = options;
  const lastContext = useRef<CursorContext | null>(null);

  // One options object for the editor's life: Tiptap compares options by identity on every render and
  // would call setOptions (a view update) whenever one differs.
  const [editorOptions] = useState<UseEditorOptions>(() => {
    const actions: CanvasActionsRef = {
      get current(): CanvasActions {
        return latest.current.canvas;
      },
    };
    const extensions = createPlanEditorExtensions({
      actions,
      generateId: options.generateId,
      ...(options.live ? { live: options.live } : {}),
    });
    const reportContext = (editor: Editor) => {
      const listener = latest.current.onCursorContext;
      if (listener === undefined) return;
      const context = cursorContext(editor.state);
      if (sameContext(lastContext.current, context)) return;
      lastContext.current = context;
      listener(context);
    };
    return {
      extensions,
      // Checked (and repaired if need be) against the SDK's schema, which is the editor's. A live plan's
      // content is its Yjs document's (the Collaboration extension fills the editor from it).
      ...(options.live
        ? {}
        : { content: documentFromContent(getPlanwrightSchema(), options.content).toJSON() }),
      editable: options.editable,
      immediatelyRender: true,
      shouldRerenderOnTransaction: false,
      enableCoreExtensions: { delete: false },
      editorProps: { attributes: ACCESSIBLE_ATTRIBUTES },
      onCreate: ({ editor }: EditorEvents['create']) => reportContext(editor),
      onUpdate: ({ editor, transaction }: EditorEvents['update']) => {
        if (transaction.getMeta(STRUCTURE_META) === true) return;
        latest.current.onEdit(editor);
      },
      onTransaction: ({ editor }: EditorEvents['transaction']) => reportContext(editor),
    };
  });
  editorOptions.editable = options.editable;
  const editor = useEditor(editorOptions);

  useEffect(() => {
    if (editor === null || editor.isDestroyed || editor.isEditable === options.editable) return;
    editor.setEditable(options.editable, false);
    // An empty transaction, so toolbars (which follow transactions) see the change.
    editor.view.dispatch(editor.state.tr.setMeta('planwright:editable', options.editable));
  }, [editor, options.editable]);

  return editor;
}
