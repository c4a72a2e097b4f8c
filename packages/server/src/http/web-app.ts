import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './http-error.js';

/** Paths the web app never owns (`/s/` is the share links' reader): unknown ones there answer a JSON 404, not the SPA. */
const API_PREFIXES = ['/api/', '/_allauth/', '/accounts/', '/ws/', '/s/'];

function isApiPath(url: string): boolean {
  return API_PREFIXES.some((prefix) => url === prefix.slice(0, -1) || url.startsWith(prefix));
}

/**
 * Serves the built web app from `webDir`: precompressed (brotli, gzip) when the client accepts it, hashed
 * assets cached for a year, `index.html` never cached, and every other GET of a page answered with `index.html` so client routes survive a reload.
 */
export async function registerWebApp(app: FastifyInstance, webDir: string): Promise<void> {
  const hasWebApp = existsSync(join(webDir, 'index.html'));
  const assetsDir = join(webDir, 'assets');
  if (hasWebApp) {
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: true,
      // `/` itself is served by the not-found handler below, like every client route.
      index: false,
      serveDotFiles: false,
      // The build writes `.br` and `.gz` beside each asset (packages/web/scripts/precompress-assets.mjs):
      // sent as they are when the client accepts them, so no asset is compressed per request.
      preCompressed: true,
      setHeaders(reply, path) {
        // Vite content-hashes everything under assets/; anything else may change between releases.
        reply.header(
          'cache-control',
          path.startsWith(assetsDir) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  } else {
    app.log.warn({ webDir }, 'web app not built: serving the API only (run `npm run build`)');
  }

  if (hasWebApp) {
    app.get('/', (_request, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html'));
  }

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '/';
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !isApiPath(path);
    // A missing asset (a stale hashed file, a typo) must 404, not answer HTML that parses as broken JS.
    const looksLikeFile = /\.[a-z0-9]{1,8}$/i.test(path);
    if (hasWebApp && wantsPage && !looksLikeFile) {
      return reply
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .sendFile('index.html');
    }
    throw new HttpError(404, 'not_found', 'Not found.');
  });
}
