import { randomUUID } from 'node:crypto';
import { type DocumentJson, normalizeDocument } from '@planwright/sdk/model';
import { HttpError } from '../http/http-error.js';

// PostgreSQL's jsonb and text refuse NUL and an unpaired surrogate escape; anything else goes.
const LONE_SURROGATE = /\p{Cs}/u;
const isUnstorable = (text: string) => text.includes('\u0000') || LONE_SURROGATE.test(text);

function invalidContent(param: string, message: string): HttpError {
  return new HttpError(400, 'invalid_content', `Invalid content: ${message}`, [
    { param, code: 'invalid_content', message },
  ]);
}

/** The path of a model problem as a field name: `content`, `content.content[2].content[0]`. */
function paramOf(prefix: string, path: string): string {
  return path === '' ? prefix : `${prefix}.${path}`;
}

/** The first string (key or value) that PostgreSQL cannot store, with where it is. */
function findUnstorable(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return isUnstorable(value) ? path : undefined;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const found = findUnstorable(value[index], `${path}[${index}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      const childPath = path === '' ? key : `${path}.${key}`;
      if (isUnstorable(key)) return childPath;
      const found = findUnstorable(child, childPath);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * A content tree from a request, normalised by the SDK's model (unknown nodes flattened, missing,
 * malformed or repeated section and subsection uuids replaced, `nodeId`s assigned, disallowed links
 * removed). What cannot be repaired answers `400 invalid_content` naming the path under `param`.
 */
export function normalizeContentInput(input: unknown, param = 'content'): DocumentJson {
  const result = normalizeDocument(input, { generateId: randomUUID });
  if (!result.ok) throw invalidContent(paramOf(param, result.error.path), result.error.problem);
  assertStorableContent(result.doc, param);
  return result.doc;
}

/**
 * Refuses a normalised tree holding text PostgreSQL cannot store (NUL, unpaired surrogates), which
 * normalisation keeps, with `400 invalid_content` naming where (`param` is the tree's own name).
 */
export function assertStorableContent(doc: unknown, param = 'content'): void {
  const unstorable = findUnstorable(doc, '');
  if (unstorable !== undefined) {
    throw invalidContent(
      paramOf(param, unstorable),
      'text must not contain NUL characters or unpaired surrogates',
    );
  }
}

/** `400 invalid_content` for a problem the model found at `path` inside the tree named `param`. */
export function invalidContentAt(param: string, path: string, problem: string): HttpError {
  return invalidContent(paramOf(param, path), problem);
}
