import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ErrorBody, HttpError } from '../http/http-error.js';

/**
 * What a write's `If-Match` asks for: nothing (`none`, the specified client sends no header), any
 * current revision (`*`), or one of the listed revisions. A tag that names no revision (`"abc"`) is
 * kept as an empty list, so it matches nothing and the write answers 412, as HTTP says.
 */
export type RevisionPrecondition =
  | { kind: 'none' }
  | { kind: 'any' }
  | { kind: 'revisions'; revisions: readonly number[] };

const TAG = /^(?:W\/)?"?(\d{1,9})"?$/;

/** Reads `If-Match`: `"4"`, `4`, `W/"4"`, `*`, or a comma-separated list of those. */
export function readIfMatch(request: FastifyRequest): RevisionPrecondition {
  const header = request.headers['if-match'];
  if (header === undefined) return { kind: 'none' };
  const tags = header
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
  if (tags.includes('*')) return { kind: 'any' };
  const revisions = tags.flatMap((tag) => {
    const match = TAG.exec(tag);
    return match?.[1] ? [Number(match[1])] : [];
  });
  return { kind: 'revisions', revisions };
}

/** Whether a resource at `revision` satisfies the precondition. */
export function revisionMatches(precondition: RevisionPrecondition, revision: number): boolean {
  return precondition.kind !== 'revisions' || precondition.revisions.includes(revision);
}

/** Which kind of resource a revision belongs to, for the words of the 412 answer. */
export type RevisionedKind = 'document' | 'blueprint';

/**
 * 412: the write's `If-Match` no longer names the current revision, so nothing was written. The body
 * adds `current_revision` to the usual `{detail, code}`.
 */
export class RevisionMismatchError extends HttpError {
  constructor(
    readonly currentRevision: number,
    kind: RevisionedKind,
  ) {
    super(412, 'revision_mismatch', `This ${kind} was changed since you loaded it.`);
  }

  override toBody(): ErrorBody & { current_revision: number } {
    return { ...super.toBody(), current_revision: this.currentRevision };
  }
}

/** Throws {@link RevisionMismatchError} unless `revision` satisfies the precondition. */
export function assertRevision(
  precondition: RevisionPrecondition,
  revision: number,
  kind: RevisionedKind,
): void {
  if (!revisionMatches(precondition, revision)) throw new RevisionMismatchError(revision, kind);
}

/** Sets `ETag: "<revision>"` on an answer. */
export function setRevisionTag(reply: FastifyReply, revision: number): void {
  void reply.header('etag', `"${revision}"`);
}
