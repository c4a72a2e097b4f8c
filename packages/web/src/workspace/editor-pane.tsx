import type { DocumentJson } from '@planwright/sdk/model';
import { useEffect } from 'react';
import {
  type CanvasActions,
  type CursorContext,
  commentThreadAt,
  EditorToolbar,
  PlanEditorCanvas,
  usePlanEditor,
} from '../editor';
import { SuggestionBar } from '../suggestions/suggestion-bar';
import { useSuggestions } from '../suggestions/use-suggestions';
import { createEditorBridge } from './editor-bridge';
import type { PlanWorkspace } from './plan-workspace';

export interface EditorPaneProps {
  workspace: PlanWorkspace;
  /** What the editor starts with (a later load goes through the workspace, not this). */
  initialContent: DocumentJson;
  /** A structure call runs: read-only, toolbar disabled (W19). */
  busy: boolean;
  canvas: CanvasActions;
  /** Documents finalize subsections; a blueprint's canvas hides those controls (its subsections never are). */
  finalize?: boolean;
  onCursorContext: (context: CursorContext) => void;
  onNewSection: () => void;
  onNewSubsection: () => void;
  /** The editor exists and the workspace talks to it. */
  onReady: () => void;
}

/**
 * The editor column: the toolbar over the canvas, which scrolls on its own (W2). Every user edit goes to
 * the workspace (autosave and outline); nothing is serialised per keystroke.
 */
export function EditorPane({
  workspace,
  initialContent,
  busy,
  canvas,
  finalize = true,
  onCursorContext,
  onNewSection,
  onNewSubsection,
  onReady,
}: EditorPaneProps) {
  const editor = usePlanEditor({
    content: initialContent,
    editable: !busy,
    canvas,
    onEdit: () => workspace.edited(),
    onCursorContext,
    ...(workspace.live
      ? { live: { document: workspace.live.document, awareness: workspace.live.awareness } }
      : {}),
  });

  const suggestions = useSuggestions(workspace, editor);

  useEffect(() => {
    if (!editor) return;
    const bridge = createEditorBridge(editor);
    workspace.attachEditor(bridge);
    onReady();
    // A click on a comment's highlighted text shows its thread (W44); the caret goes where it was clicked.
    const dom = editor.view.dom;
    const onClick = (event: MouseEvent) => {
      const thread = commentThreadAt(event.target);
      if (thread !== null) workspace.commentClicked(thread);
    };
    dom.addEventListener('click', onClick);
    return () => {
      dom.removeEventListener('click', onClick);
      workspace.detachEditor(bridge);
    };
  }, [editor, workspace, onReady]);

  return (
    <>
      <div className="border-b border-base-300 px-2 py-1">
        <EditorToolbar
          editor={editor}
          onNewSection={onNewSection}
          onNewSubsection={onNewSubsection}
          disabled={busy}
        />
      </div>
      {/* A canvas that cannot be edited takes no focus itself: its scroller does, so the keyboard still scrolls. */}
      <div className="min-h-0 flex-1 overflow-y-auto" tabIndex={busy ? 0 : undefined}>
        <PlanEditorCanvas
          editor={editor}
          ai={suggestions.ai}
          className={`mx-auto max-w-4xl px-6 py-6${finalize ? '' : ' [&_.pw-finalize]:hidden'}`}
        />
        <SuggestionBar
          queue={suggestions.queue}
          runs={suggestions.runs}
          failure={suggestions.failure}
          onDismissFailure={suggestions.dismissFailure}
          actions={suggestions.actions}
        />
      </div>
    </>
  );
}
