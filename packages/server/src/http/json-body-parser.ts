import type { FastifyInstance } from 'fastify';
import { HttpError } from './http-error.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Leave a JSON body of {@link RAW_JSON_MIN_BYTES} or more unparsed, as a {@link RawJsonBody}. */
    rawLargeJson?: boolean;
  }
}

// `fatal`: a malformed byte sequence throws instead of becoming U+FFFD, which would be stored as if typed.
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** From this size a route with `config.rawLargeJson` gets the body's text: parsing it here costs more than a thread hop. */
export const RAW_JSON_MIN_BYTES = 256 * 1024;

/**
 * A large JSON body left as text (valid UTF-8) for its route to parse in a worker thread.
 * `parseInline()` parses it here exactly as any other body is (throwing Fastify's own error).
 */
export class RawJsonBody {
  constructor(
    readonly text: string,
    readonly parseInline: () => unknown,
  ) {}
}

/**
 * JSON bodies are read as bytes and decoded strictly: invalid UTF-8 answers `400 invalid_utf8` instead of
 * being stored with replacement characters. Parsing is then Fastify's own (prototype poisoning refused),
 * except for a large body on a route that parses it off the event loop (`config.rawLargeJson`).
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      done(new HttpError(400, 'invalid_utf8', 'The body is not valid UTF-8 text.'), undefined);
      return;
    }
    if ((body as Buffer).length >= RAW_JSON_MIN_BYTES && request.routeOptions.config.rawLargeJson === true) {
      const parseInline = () => {
        let outcome: { error: Error | null; value: unknown } = { error: null, value: undefined };
        // Fastify's default parser answers synchronously.
        parseJson(request, text, (error, value) => {
          outcome = { error, value };
        });
        if (outcome.error) throw outcome.error;
        return outcome.value;
      };
      done(null, new RawJsonBody(text, parseInline));
      return;
    }
    parseJson(request, text, done);
  });
}
