import { updateYFragment, yXmlFragmentToProsemirrorJSON } from '@tiptap/y-tiptap';
import * as Y from 'yjs';
import type { DocumentJson } from '../model/document-json.js';
import { DocumentStructureError } from '../model/document-structure-error.js';
import {
  type NormalizeOptions,
  type NormalizeReport,
  normalizeDocument,
} from '../model/normalize-document.js';
import { getPlanwrightSchema } from '../model/schema.js';

/**
 * The name of the `Y.XmlFragment` that holds a plan's content in its Yjs document: the editor's
 * Collaboration extension binds to it (`field`), the server reads and writes it.
 */
export const LIVE_CONTENT_FIELD = 'content';

/** The fragment of `ydoc` that holds the plan's content (created empty on first access). */
export function liveContentOf(ydoc: Y.Doc): Y.XmlFragment {
  return ydoc.getXmlFragment(LIVE_CONTENT_FIELD);
}

/** What {@link readLiveContent} found: the content as a normalised tree, and what normalising changed. */
export interface LiveContentRead {
  /** The canonical tree (M3): what `content` is on the REST API. */
  document: DocumentJson;
  /**
   * What normalising changed. Something other than filled-in defaults (a structure repaired after two
   * concurrent edits, an id given twice) means the Yjs state is not canonical: the server writes
   * `document` back with {@link writeLiveContent}, so every replica converges on a valid tree.
   */
  report: NormalizeReport;
}

/**
 * Reads a plan's content out of its Yjs document as a normalised tree (spec M3–M12). Never changes
 * `ydoc`. An empty fragment reads as a document with one untitled section, as normalising `{type:'doc'}`
 * gives.
 *
 * @throws DocumentStructureError when the state is beyond repair (over the model's size limits).
 */
export function readLiveContent(ydoc: Y.Doc, options: NormalizeOptions = {}): LiveContentRead {
  const fragment = liveContentOf(ydoc);
  // The JSON holds only the attributes that are set (Yjs drops nulls): normalising fills the defaults.
  const raw = yXmlFragmentToProsemirrorJSON(fragment);
  const result = normalizeDocument(raw, options);
  if (!result.ok) throw result.error;
  return { document: result.doc, report: result.report };
}

/**
 * Whether normalising changed more than the attributes a Yjs state leaves out (defaults): a repair
 * that should be written back so every replica holds the canonical tree.
 */
export function needsRepair(report: NormalizeReport): boolean {
  return (
    report.flattenedNodes > 0 ||
    report.restructuredNodes > 0 ||
    report.addedNodes > 0 ||
    report.removedNodes > 0 ||
    report.droppedMarks > 0 ||
    report.removedLinks > 0 ||
    report.assignedNodeIds > 0 ||
    report.assignedUuids > 0
  );
}

/**
 * Makes the plan's Yjs content equal `document` with the smallest change: unchanged blocks are kept
 * (with everything others typed into them), changed text is edited in place character by character,
 * and only blocks that differ are inserted or removed. This is how a REST write, an import or a
 * structure call reaches people who have the plan open without overwriting what they type elsewhere.
 * Runs in one transaction with `origin`. Returns whether anything changed.
 *
 * `document` must be a normalised tree (`normalizeDocument`); it is checked against the schema.
 *
 * @throws DocumentStructureError when `document` does not fit the schema.
 */
export function writeLiveContent(ydoc: Y.Doc, document: DocumentJson, origin: unknown = null): boolean {
  const schema = getPlanwrightSchema();
  let node: ReturnType<typeof schema.nodeFromJSON>;
  try {
    node = schema.nodeFromJSON(document);
    node.check();
  } catch (error) {
    throw new DocumentStructureError({
      path: '',
      problem: error instanceof Error ? error.message : 'does not fit the schema',
      cause: error,
    });
  }
  const fragment = liveContentOf(ydoc);
  const before = Y.encodeStateVector(ydoc);
  ydoc.transact(() => {
    // A fresh mapping: blocks are matched by equal content, not by an editor's node identity.
    updateYFragment(ydoc, fragment, node, { mapping: new Map(), isOMark: new Map() });
  }, origin);
  return !equalBytes(before, Y.encodeStateVector(ydoc));
}

/**
 * A new Yjs document whose content is `document` (a normalised tree): how a plan saved before live
 * documents gets its first state.
 */
export function createLiveContent(document: DocumentJson, origin: unknown = null): Y.Doc {
  const ydoc = new Y.Doc();
  writeLiveContent(ydoc, document, origin);
  return ydoc;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
