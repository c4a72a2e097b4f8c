import { constants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Answers smaller than this go as they are: below ~1 KB the headers outweigh what compression saves. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Compresses answers (JSON, Markdown and HTML exports, and any asset that has no precompressed file) with
 * brotli or gzip, as the client's `Accept-Encoding` allows. Register before the routes: the plugin hooks
 * every route added after it. The built web app's assets come precompressed (`preCompressed` in
 * web-app.ts), and an answer that already carries a `Content-Encoding` is left alone.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    threshold: COMPRESSION_THRESHOLD_BYTES,
    // No deflate: its two incompatible meanings (zlib vs raw) have bitten clients for decades; every
    // client that sends Accept-Encoding takes gzip.
    encodings: ['br', 'gzip'],
    // Quality 4, not brotli's default 11: 11 costs ~50× the CPU of 4 for a few % less, which a dynamic
    // answer (a 2.5 MB plan) cannot afford per request; 4 still beats gzip -6 on size at similar speed.
    brotliOptions: {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 4,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    },
    zlibOptions: { level: 6 },
    // Request bodies stay uncompressed: a gzip body would let a small upload inflate past the body limits.
    globalDecompression: false,
  });
  // Compressible answers say they vary with Accept-Encoding even when this one went plain (below the
  // threshold, or `identity` asked): a shared cache must not hand a plain copy's headers to everyone.
  app.addHook('onSend', async (_request, reply, payload) => {
    const type = String(reply.getHeader('content-type') ?? '');
    if (/^(?:text\/|application\/(?:json|javascript)|image\/svg)/i.test(type)) addVary(reply);
    return payload;
  });
}

function addVary(reply: { getHeader(name: string): unknown; header(name: string, value: string): unknown }) {
  const current = reply.getHeader('vary');
  const values = (Array.isArray(current) ? current.join(',') : String(current ?? ''))
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);
  if (values.some((value) => value === '*' || value.toLowerCase() === 'accept-encoding')) return;
  reply.header('vary', [...values, 'accept-encoding'].join(', '));
}
