import type * as z from 'zod';
import { InvalidInputError } from '../errors/invalid-input-error.js';
import type { HttpClient } from '../http/http-client.js';
import type { WriteOptions } from './call-options.js';

function isRevision(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;
}

/**
 * The revision an `ETag` names (`docs/http-api.md` "Revisions"): `"4"`, `W/"4"` or a bare `4`; `null` for
 * anything else (a missing header, `*`, an opaque tag from a proxy).
 */
export function revisionFromEtag(etag: string | null | undefined): number | null {
  const match = /^\s*(?:W\/)?"?(\d{1,15})"?\s*$/.exec(etag ?? '');
  if (!match?.[1]) return null;
  const revision = Number(match[1]);
  return isRevision(revision) ? revision : null;
}

/** A revision read from a body: a whole number ≥ 1, else `null`. */
export function revisionOf(value: unknown): number | null {
  return isRevision(value) ? value : null;
}

/**
 * The `If-Match` header of a write (`If-Match: "4"`), or none without `ifMatch`.
 *
 * @throws InvalidInputError when `ifMatch` is not a whole number ≥ 1, before anything is sent.
 */
export function ifMatchHeaders(options: WriteOptions): Record<string, string> | undefined {
  const { ifMatch } = options;
  if (ifMatch === undefined) return undefined;
  if (!isRevision(ifMatch)) {
    throw new InvalidInputError({
      issues: [
        {
          code: 'custom',
          path: ['ifMatch'],
          message: 'must be a whole number of at least 1',
          input: ifMatch,
        },
      ],
      subject: 'write options',
    });
  }
  return { 'If-Match': `"${ifMatch}"` };
}

/** Collects the revision of an answer's `ETag` while a call runs (pass `onHeaders` to the call). */
export function etagRecorder(): { onHeaders: (headers: Headers) => void; readonly revision: number | null } {
  let revision: number | null = null;
  return {
    onHeaders: (headers) => {
      revision = revisionFromEtag(headers.get('etag'));
    },
    get revision() {
      return revision;
    },
  };
}

/**
 * Runs a call that answers one revisioned object (a document, a blueprint, a section with its parent's
 * revision) and fills `revision` from the answer's `ETag` when the body carried none.
 */
export async function withEtagRevision<T extends { revision: number | null }>(
  run: (onHeaders: (headers: Headers) => void) => Promise<T>,
): Promise<T> {
  const etag = etagRecorder();
  const answer = await run(etag.onHeaders);
  return answer.revision === null ? { ...answer, revision: etag.revision } : answer;
}

/**
 * One call on a revisioned object (`GET`, `POST` or `PATCH` of a document or blueprint): the answer is
 * parsed with `schema`, `ifMatch` becomes `If-Match`, and `revision` is filled from the `ETag` when the
 * body carried none. One path for every such call, so documents and blueprints cannot drift apart.
 */
export function revisionedCall<T extends { revision: number | null }>(
  http: HttpClient,
  call: { method: 'get'; path: string } | { method: 'post' | 'patch'; path: string; body: unknown },
  schema: z.ZodType<T>,
  options: WriteOptions = {},
): Promise<T> {
  const headers = ifMatchHeaders(options);
  return withEtagRevision((onHeaders) => {
    const request = { schema, signal: options.signal, keepalive: options.keepalive, headers, onHeaders };
    return call.method === 'get'
      ? http.get(call.path, request)
      : http[call.method](call.path, call.body, request);
  });
}
