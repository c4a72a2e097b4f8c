import type { IncomingHttpHeaders } from 'node:http';
import Negotiator from 'negotiator';

/** One JSON event per line: the media type of the answers that stream (imports, AI transforms). */
export const NDJSON_MEDIA_TYPE = 'application/x-ndjson';

/**
 * Whether the client asked for a line stream rather than JSON. Ordinary content negotiation between
 * `application/json` (the default) and `application/x-ndjson`: the higher `q` wins, then the more specific range,
 * then the client's order; `*\/*`, a missing, malformed or unsatisfiable `Accept` get JSON (never 406: JSON is
 * the contract every client of the seeds expects).
 */
export function prefersNdjson(headers: IncomingHttpHeaders): boolean {
  const accept = headers.accept;
  if (accept === undefined || accept === '') return false;
  return (
    new Negotiator({ headers: { accept } }).mediaType(['application/json', NDJSON_MEDIA_TYPE]) ===
    NDJSON_MEDIA_TYPE
  );
}
