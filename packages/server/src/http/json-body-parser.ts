import type { FastifyInstance } from 'fastify';
import { HttpError } from './http-error.js';

// `fatal`: a malformed byte sequence throws instead of becoming U+FFFD, which would be stored as if typed.
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * JSON bodies are read as bytes and decoded strictly: invalid UTF-8 answers `400 invalid_utf8` instead of
 * being stored with replacement characters. Parsing is then Fastify's own (prototype poisoning refused).
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
    parseJson(request, text, done);
  });
}
