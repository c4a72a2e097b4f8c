import type { DocumentJson } from '@planwright/sdk/model';
import type { Editor } from '@tiptap/core';
import {
  loadEditorContent,
  revealInEditor,
  setStructureHints,
  setSubsectionFinalizedInEditor,
} from '../editor';
import { structureSkeleton } from './live-outline';

/**
 * What the workspace needs of the editor. The workspace's core talks to this, never to Tiptap, so its rules
 * are tested with a stand-in and the editor can change underneath.
 */
export interface EditorBridge {
  /** The whole content (for a save, or to confirm a title write). */
  getJSON(): DocumentJson;
  /** Replaces the content with a server answer: no undo step, no edit event. */
  load(content: DocumentJson): void;
  /** Read-only while a structure call runs (W19). */
  setReadOnly(readOnly: boolean): void;
  /** Sets a subsection's finalized flag as an edit (autosave saves it); false when not found. */
  setFinalized(subsectionUuid: string, finalized: boolean): boolean;
  /** Scrolls a section (or subsection) into view with the cursor in its title; false when not found. */
  reveal(target: { sectionUuid: string; subsectionUuid?: string | null }): boolean;
  /** The sections and subsections with their titles, cheaply (see `structureSkeleton`). */
  skeleton(): unknown;
  /** Shows each section's and subsection's user hint under its heading (never part of the content). */
  setHints(hints: ReadonlyMap<string, string>): void;
}

/** The bridge over a Tiptap editor made by `usePlanEditor`. */
export function createEditorBridge(editor: Editor): EditorBridge {
  return {
    // The editor runs on the SDK's schema, so its JSON is a DocumentJson; Tiptap only types it loosely.
    getJSON: () => editor.getJSON() as unknown as DocumentJson,
    load: (content) => loadEditorContent(editor, content),
    // No update event: a mode change is not an edit, and must not mark the document unsaved.
    setReadOnly: (readOnly) => editor.setEditable(!readOnly, false),
    setFinalized: (subsectionUuid, finalized) =>
      setSubsectionFinalizedInEditor(editor, subsectionUuid, finalized),
    reveal: (target) => revealInEditor(editor, target),
    skeleton: () => structureSkeleton(editor.state.doc),
    setHints: (hints) => setStructureHints(editor, hints),
  };
}
