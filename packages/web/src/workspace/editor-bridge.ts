import { type DocumentJson, normalizeDocument } from '@planwright/sdk/model';
import type { Editor } from '@tiptap/core';
import { closeHistory } from '@tiptap/pm/history';
import { Fragment, type Node as ProseMirrorNode, type Schema, type Slice } from '@tiptap/pm/model';
import { TextSelection, type Transaction } from '@tiptap/pm/state';
import {
  type CommentMark,
  commentAnchorOfSelection,
  loadEditorContent,
  revealCommentRange,
  revealInEditor,
  revealSuggestion,
  setCommentMarks,
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
  /** Puts the keyboard focus in the text, with the cursor where it was (the workspace's skip link). */
  focus(): void;
  /** Scrolls a section (or subsection) into view with the cursor in its title; false when not found. */
  reveal(target: { sectionUuid: string; subsectionUuid?: string | null }): boolean;
  /** The sections and subsections with their titles, cheaply (see `structureSkeleton`). */
  skeleton(): unknown;
  /** Shows each section's and subsection's user hint under its heading (never part of the content). */
  setHints(hints: ReadonlyMap<string, string>): void;
  /**
   * Makes the content `next` as a user edit (R1–R3): one undo step that changes only what differs, the
   * editor's update runs (autosave). False when the editor is read-only or gone, or `next` cannot be taken
   * (another structure, a change inside a finalized subsection, content the schema refuses).
   */
  applyContent(next: DocumentJson): boolean;
  /** A new paragraph holding `text` after the block at the cursor (R4); false when it cannot go there. */
  insertParagraphAfterCursor(text: string): boolean;
  /** The text selected in the editor, blocks joined by spaces (`''` for a caret): what a new comment quotes. */
  selectedText(): string;
  /** The anchor of the selection in a live plan (a new comment's), or null (a caret, a plan not live). */
  commentAnchor(): string | null;
  /** Marks the comment threads on the canvas (W44). */
  setCommentMarks(marks: readonly CommentMark[]): void;
  /** Selects a thread's text and scrolls to it; false when its text is gone. */
  revealComment(anchor: string): boolean;
  /** Scrolls an AI suggestion into view; false when it is not drawn (W50). */
  revealSuggestion(id: string): boolean;
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
    focus: () => {
      editor.commands.focus();
    },
    reveal: (target) => revealInEditor(editor, target),
    skeleton: () => structureSkeleton(editor.state.doc),
    commentAnchor: () => commentAnchorOfSelection(editor),
    setCommentMarks: (marks) => setCommentMarks(editor, marks),
    revealComment: (anchor) => revealCommentRange(editor, anchor),
    revealSuggestion: (id) => revealSuggestion(editor, id),
    selectedText: () => {
      const { from, to } = editor.state.selection;
      return editor.state.doc.textBetween(from, to, ' ', ' ');
    },
    setHints: (hints) => setStructureHints(editor, hints),
    applyContent: (next) => applyContentInEditor(editor, next),
    insertParagraphAfterCursor: (text) => insertParagraphAfterCursorInEditor(editor, text),
  };
}

/** One range of the current document to replace with a range of the next one. */
interface Replacement {
  from: number;
  to: number;
  slice: Slice;
}

/** What differs between two documents of the same structure, by kind of transaction (R2). */
interface ContentDifference {
  /** Body ranges and section/subsection attributes (never a uuid). */
  bodies: Replacement[];
  attributes: { pos: number; name: string; value: unknown }[];
  /** Inside titles only. */
  titles: Replacement[];
}

/** The replacement turning `old.content` (starting at `oldStart`) into `next.content` (at `nextStart`), if any. */
function fragmentReplacement(
  oldFragment: Fragment,
  oldStart: number,
  nextFragment: Fragment,
  nextStart: number,
  nextDoc: ProseMirrorNode,
): Replacement | null {
  const start = oldFragment.findDiffStart(nextFragment);
  if (start === null) return null;
  const ends = oldFragment.findDiffEnd(nextFragment) ?? { a: oldFragment.size, b: nextFragment.size };
  let endOld = ends.a;
  let endNew = ends.b;
  // Repeated content makes the two ends overlap the start: move both ends forward by the overlap.
  const overlap = start - Math.min(endOld, endNew);
  if (overlap > 0) {
    endOld += overlap;
    endNew += overlap;
  }
  return {
    from: oldStart + start,
    to: oldStart + endOld,
    slice: nextDoc.slice(nextStart + start, nextStart + endNew),
  };
}

/** The children of a section or subsection after its title and before its first subsection. */
function bodyOf(node: ProseMirrorNode): Fragment {
  const blocks: ProseMirrorNode[] = [];
  node.forEach((child, _offset, index) => {
    if (index > 0 && child.type.name !== 'subsection') blocks.push(child);
  });
  return Fragment.from(blocks);
}

/**
 * Compares a section or subsection (`old` at `oldPos`, `next` at `nextPos`) and collects what differs;
 * false when the structure differs or a finalized subsection would change (R2).
 */
function collectStructure(
  old: ProseMirrorNode,
  oldPos: number,
  next: ProseMirrorNode,
  nextPos: number,
  nextDoc: ProseMirrorNode,
  into: ContentDifference,
): boolean {
  if (old.type !== next.type || old.attrs.uuid !== next.attrs.uuid) return false;
  if (old.eq(next)) return true;
  const finalized = old.type.name === 'subsection' && old.attrs.finalized === true;
  for (const name of Object.keys(next.attrs)) {
    if (old.attrs[name] !== next.attrs[name])
      into.attributes.push({ pos: oldPos, name, value: next.attrs[name] });
  }
  const oldTitle = old.firstChild;
  const nextTitle = next.firstChild;
  if (oldTitle === null || nextTitle === null) return false;
  const title = fragmentReplacement(oldTitle.content, oldPos + 2, nextTitle.content, nextPos + 2, nextDoc);
  const bodyStart = 1 + oldTitle.nodeSize;
  const nextBodyStart = 1 + nextTitle.nodeSize;
  const body = fragmentReplacement(
    bodyOf(old),
    oldPos + bodyStart,
    bodyOf(next),
    nextPos + nextBodyStart,
    nextDoc,
  );
  if (finalized && (title !== null || body !== null)) return false;
  if (title !== null) into.titles.push(title);
  if (body !== null) into.bodies.push(body);
  // The subsections, pairwise: the same ones in the same order, or no taking it.
  const oldSubsections: { node: ProseMirrorNode; pos: number }[] = [];
  const nextSubsections: { node: ProseMirrorNode; pos: number }[] = [];
  old.forEach((child, offset) => {
    if (child.type.name === 'subsection') oldSubsections.push({ node: child, pos: oldPos + 1 + offset });
  });
  next.forEach((child, offset) => {
    if (child.type.name === 'subsection') nextSubsections.push({ node: child, pos: nextPos + 1 + offset });
  });
  if (oldSubsections.length !== nextSubsections.length) return false;
  return oldSubsections.every((entry, index) => {
    const other = nextSubsections[index];
    return (
      other !== undefined && collectStructure(entry.node, entry.pos, other.node, other.pos, nextDoc, into)
    );
  });
}

/** What differs between two documents with the same sections and subsections; null otherwise (R2). */
export function contentDifference(old: ProseMirrorNode, next: ProseMirrorNode): ContentDifference | null {
  if (old.childCount !== next.childCount) return null;
  const into: ContentDifference = { bodies: [], attributes: [], titles: [] };
  let oldPos = 0;
  let nextPos = 0;
  for (let index = 0; index < old.childCount; index++) {
    const a = old.child(index);
    const b = next.child(index);
    if (!collectStructure(a, oldPos, b, nextPos, next, into)) return null;
    oldPos += a.nodeSize;
    nextPos += b.nodeSize;
  }
  return into;
}

/** Applies replacements from the last to the first, so the positions of the earlier ones still hold. */
function replaceAll(tr: Transaction, replacements: readonly Replacement[]): void {
  for (const { from, to, slice } of [...replacements].sort((a, b) => b.from - a.from)) {
    tr.replace(from, to, slice);
  }
}

/** `next` in the editor's schema, checked; null when it is no valid document. */
function nextDocument(schema: Schema, next: DocumentJson): ProseMirrorNode | null {
  const normalized = normalizeDocument(next);
  if (!normalized.ok) return null;
  try {
    const doc = schema.nodeFromJSON(normalized.doc);
    doc.check();
    return doc;
  } catch {
    return null;
  }
}

/**
 * R1–R3: makes the editor's content `next` as one user edit. Body changes and attribute changes go in one
 * transaction; title changes, which the structure guard lets through only as edits inside a title (E2),
 * follow in a second one that joins the first's undo step.
 */
export function applyContentInEditor(editor: Editor, next: DocumentJson): boolean {
  if (editor.isDestroyed || !editor.isEditable) return false;
  const nextDoc = nextDocument(editor.schema, next);
  if (nextDoc === null) return false;
  const before = editor.state.doc;
  const difference = contentDifference(before, nextDoc);
  if (difference === null) return false;
  const { bodies, attributes, titles } = difference;
  if (bodies.length === 0 && attributes.length === 0 && titles.length === 0) return true;
  let first: Transaction | null = null;
  if (bodies.length > 0 || attributes.length > 0) {
    // Its own undo step, never merged with typing just before.
    const tr = closeHistory(editor.state.tr);
    replaceAll(tr, bodies);
    for (const { pos, name, value } of attributes) tr.setNodeAttribute(tr.mapping.map(pos), name, value);
    editor.view.dispatch(tr.scrollIntoView());
    if (editor.state.doc === before) return false;
    first = tr;
  }
  if (titles.length > 0) {
    const current = editor.state.doc;
    const rest = contentDifference(current, nextDoc);
    if (rest === null) return first !== null;
    const tr = editor.state.tr;
    if (first === null) closeHistory(tr);
    // The history joins a transaction marked as appended to another into that one's undo step.
    else tr.setMeta('appendedTransaction', first);
    replaceAll(tr, rest.titles);
    editor.view.dispatch(tr);
    if (editor.state.doc === current) return first !== null;
  }
  return true;
}

/** Paragraph content for `text`: its lines, joined by hard breaks (empty lines stay as breaks). */
function paragraphContent(schema: Schema, text: string): ProseMirrorNode[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const content: ProseMirrorNode[] = [];
  const hardBreak = schema.nodes.hardBreak;
  lines.forEach((line, index) => {
    if (index > 0 && hardBreak) content.push(hardBreak.create());
    if (line !== '') content.push(schema.text(line));
  });
  return content;
}

/**
 * R4: a new paragraph holding `text` after the body block the cursor is in (a list or quote as a whole);
 * in a title, at the end of that section's own body or that subsection. The cursor ends after it. False
 * for blank text, a read-only editor, or a finalized subsection.
 */
export function insertParagraphAfterCursorInEditor(editor: Editor, text: string): boolean {
  if (editor.isDestroyed || !editor.isEditable || text.trim() === '') return false;
  const { state } = editor;
  const paragraph = state.schema.nodes.paragraph;
  if (!paragraph) return false;
  const $head = state.selection.$head;
  let holderDepth = -1;
  for (let depth = $head.depth; depth > 0; depth--) {
    if (isStructureName($head.node(depth).type.name)) {
      holderDepth = depth;
      break;
    }
  }
  if (holderDepth < 0) return false;
  const holder = $head.node(holderDepth);
  if (holder.type.name === 'subsection' && holder.attrs.finalized === true) return false;
  const holderStart = $head.start(holderDepth);
  let insertAt: number;
  if ($head.depth > holderDepth && $head.index(holderDepth) > 0) insertAt = $head.after(holderDepth + 1);
  else {
    // In the title (or between blocks): the end of the holder's own body, before any subsection.
    insertAt = holderStart;
    holder.forEach((child, offset) => {
      if (child.type.name !== 'subsection' && offset + child.nodeSize + holderStart > insertAt) {
        insertAt = holderStart + offset + child.nodeSize;
      }
    });
  }
  const node = paragraph.create(null, paragraphContent(state.schema, text));
  const tr = closeHistory(state.tr).insert(insertAt, node);
  tr.setSelection(TextSelection.create(tr.doc, insertAt + node.nodeSize - 1)).scrollIntoView();
  const before = state.doc;
  editor.view.dispatch(tr);
  return editor.state.doc !== before;
}

function isStructureName(name: string): boolean {
  return name === 'section' || name === 'subsection';
}
