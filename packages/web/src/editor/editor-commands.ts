import { type DocumentJson, normalizeDocument } from '@planwright/sdk/model';
import type { Editor } from '@tiptap/core';
import type { Node as ProseMirrorNode, Schema } from '@tiptap/pm/model';
import { Selection, TextSelection } from '@tiptap/pm/state';
import { scrollToStart } from '../ui/scroll-to-start.js';
import { FINALIZE_META, STRUCTURE_META } from './editor-meta.js';
import { findStructureNode } from './structure-queries.js';

/**
 * The ProseMirror document of some content. Server answers are normalised already and are read as they
 * are; anything that does not fit the schema is normalised first (E16), and what cannot be repaired
 * gives one untitled section rather than a crash.
 */
export function documentFromContent(schema: Schema, content: DocumentJson): ProseMirrorNode {
  try {
    const doc = schema.nodeFromJSON(content);
    doc.check();
    return doc;
  } catch {
    const result = normalizeDocument(content);
    const repaired = result.ok
      ? result.doc
      : (normalizeDocument({ type: 'doc', content: [] }) as { doc: DocumentJson }).doc;
    return schema.nodeFromJSON(repaired);
  }
}

/**
 * Replaces the whole content with a server answer (E16): no undo step, no `onEdit`, structure and
 * finalized subsections replaced as they come. Only the part that differs is replaced, so the history
 * keeps its steps for the rest, unchanged sections keep their DOM, and an answer equal to the content
 * does nothing at all. The selection stays where it was when that part of the document did not change,
 * else at the same position (clamped), else at the start.
 */
export function loadEditorContent(editor: Editor, content: DocumentJson): void {
  const { state } = editor;
  const next = documentFromContent(state.schema, content);
  const start = state.doc.content.findDiffStart(next.content);
  if (start === null) return;
  const ends = state.doc.content.findDiffEnd(next.content);
  let endOld = ends?.a ?? state.doc.content.size;
  let endNew = ends?.b ?? next.content.size;
  // When the two ends overlap (repeated content), move both ends forward by the overlap.
  const overlap = start - Math.min(endOld, endNew);
  if (overlap > 0) {
    endOld += overlap;
    endNew += overlap;
  }
  const tr = state.tr.setMeta(STRUCTURE_META, true).setMeta('addToHistory', false);
  try {
    tr.replace(start, endOld, next.slice(start, endNew));
  } catch {
    // The slice did not fit (it should): replace everything instead.
  }
  if (!tr.doc.eq(next)) tr.replaceWith(0, tr.doc.content.size, next.content);
  const { anchor, head } = state.selection;
  const mapped = tr.mapping.mapResult(head);
  if (mapped.deleted) {
    const size = tr.doc.content.size;
    const clamp = (pos: number) => Math.min(Math.max(pos, 0), size);
    try {
      tr.setSelection(TextSelection.between(tr.doc.resolve(clamp(anchor)), tr.doc.resolve(clamp(head))));
    } catch {
      tr.setSelection(Selection.atStart(tr.doc));
    }
  }
  editor.view.dispatch(tr);
}

/**
 * Sets a subsection's `finalized` flag in the editor (E17): one undoable step that is a user edit, so
 * `onEdit` runs and autosave stores it. True when the subsection exists (also when the flag already had
 * that value, which changes nothing), false when it does not.
 */
export function setSubsectionFinalizedInEditor(
  editor: Editor,
  subsectionUuid: string,
  finalized: boolean,
): boolean {
  const found = findStructureNode(editor.state.doc, subsectionUuid, 'subsection');
  if (found === null) return false;
  if (found.node.attrs.finalized === finalized) return true;
  const tr = editor.state.tr.setNodeAttribute(found.pos, 'finalized', finalized).setMeta(FINALIZE_META, true);
  editor.view.dispatch(tr);
  return true;
}

/**
 * Scrolls a section's (or subsection's) title into view and puts the cursor at the end of the title
 * (E18). The editor is not focused: the sidebar keeps the keyboard focus. False when not found.
 */
export function revealInEditor(
  editor: Editor,
  target: { sectionUuid: string; subsectionUuid?: string | null },
): boolean {
  const { doc } = editor.state;
  const section = findStructureNode(doc, target.sectionUuid, 'section');
  if (section === null) return false;
  let found = section;
  if (target.subsectionUuid) {
    const subsection = findStructureNode(doc, target.subsectionUuid, 'subsection');
    // The subsection must belong to that section.
    if (
      subsection === null ||
      subsection.pos < section.pos ||
      subsection.pos > section.pos + section.node.nodeSize
    ) {
      return false;
    }
    found = subsection;
  }
  const title = found.node.firstChild;
  if (title === null) return false;
  const titleEnd = found.pos + 1 + title.nodeSize - 1;
  editor.view.dispatch(editor.state.tr.setSelection(TextSelection.create(doc, titleEnd)).scrollIntoView());
  const dom = editor.view.nodeDOM(found.pos);
  if (dom instanceof HTMLElement) scrollToStart(dom);
  return true;
}
