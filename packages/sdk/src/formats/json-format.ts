import { FormatError } from '../errors/format-error.js';
import type { DocumentJson } from '../model/document-json.js';
import { normalizeDocument } from '../model/normalize-document.js';
import { assertImportText, type FormatImportOptions } from './import-options.js';
import { counted, ImportNotes, type ImportResult } from './import-report.js';

/** Longest JSON text read, in UTF-16 code units (64 MiB). */
export const MAX_JSON_LENGTH = 64 * 1024 * 1024;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The document tree in a parsed file: the tree itself, or the `content` of a wrapper such as an API answer. */
function treeOf(parsed: unknown): unknown {
  if (isObject(parsed) && parsed.type !== 'doc' && isObject(parsed.content)) return parsed.content;
  return parsed;
}

/** The first line of a parser's message, without the input it may quote at length. */
function oneLine(message: string): string {
  const line = message.split('\n', 1)[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/**
 * Reads Tiptap JSON (F23–F26): a `{ "type": "doc" }` tree, or an object whose `content` is one (an API
 * answer). The tree is normalised; what normalisation repaired is reported as `content_repaired`.
 *
 * @throws FormatError `invalid_document` for text that is not JSON or a tree that cannot be a document
 *   (the message names the path), `too_large` past `MAX_JSON_LENGTH` or the model's node limit.
 */
export function jsonToDocument(text: string, options: FormatImportOptions = {}): ImportResult {
  assertImportText(text, 'JSON', MAX_JSON_LENGTH);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const detail = error instanceof Error ? oneLine(error.message) : 'it does not parse';
    throw new FormatError({
      reason: 'invalid_document',
      message: `The file is not valid JSON: ${detail}`,
      cause: error,
    });
  }
  const tree = treeOf(parsed);
  const result = normalizeDocument(tree, { generateId: options.generateId });
  if (!result.ok) {
    const tooLarge = result.error.problem.includes('nodes and marks');
    throw new FormatError({
      reason: tooLarge ? 'too_large' : 'invalid_document',
      message: `The JSON is not a Planwright document: ${result.error.message}`,
      cause: result.error,
    });
  }
  const notes = new ImportNotes();
  const { report } = result;
  const repairs =
    report.flattenedNodes +
    report.restructuredNodes +
    report.addedNodes +
    report.removedNodes +
    report.droppedMarks +
    report.removedLinks +
    report.fixedAttributes +
    report.assignedNodeIds +
    report.assignedUuids;
  if (repairs > 0) {
    notes.add(
      'content_repaired',
      (count) =>
        `${counted(count, 'repair')} ${count === 1 ? 'was' : 'were'} made so the tree fits the document model.`,
      repairs,
    );
  } else if (report.changed) {
    notes.add('content_repaired', () => 'Missing default attributes were filled in.');
  }
  return { document: result.doc, report: { format: 'json', notes: notes.list() } };
}

/** The document as Tiptap JSON: two-space indentation, keys in the order the model writes them, a final newline. */
export function documentToJson(document: DocumentJson): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
