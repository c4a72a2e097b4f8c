#!/usr/bin/env node
// After `vite build`: writes `name.br` and `name.gz` beside every text file of dist/, which the server sends
// as they are (@fastify/static `preCompressed`), so the browser gets compressed assets at no CPU cost per
// request. Build time can afford the strongest settings: brotli quality 11, gzip level 9.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** What compresses well; images and fonts (woff2) are compressed formats already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest|map)$/i;
/** Below this, the headers weigh more than what compression saves (the server's JSON threshold too). */
const MIN_BYTES = 1024;

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/**
 * Compresses every compressible file of `dist` in place; a variant that does not save at least 5 % is not
 * written (the server then sends the file as it is). Answers what was written, for the build log.
 */
export async function precompressAssets(dist) {
  const files = filesUnder(dist).filter((file) => COMPRESSIBLE.test(file));
  const written = [];
  // zlib's async functions run on libuv's thread pool, so the files compress in parallel.
  await Promise.all(
    files.map(async (file) => {
      const raw = readFileSync(file);
      if (raw.length < MIN_BYTES) return;
      const [br, gz] = await Promise.all([
        brotli(raw, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        }),
        gzipAsync(raw, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      for (const [extension, bytes] of [
        ['.br', br],
        ['.gz', gz],
      ]) {
        if (bytes.length > raw.length * 0.95) continue;
        writeFileSync(file + extension, bytes);
        written.push({ file: relative(dist, file) + extension, raw: raw.length, bytes: bytes.length });
      }
    }),
  );
  return written;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  // A directory may be named (tests compress a stand-in build); by default the web app's own dist/.
  const dist = process.argv[2] ?? fileURLToPath(new URL('../dist/', import.meta.url));
  const written = await precompressAssets(dist);
  const total = (suffix) =>
    written.filter((entry) => entry.file.endsWith(suffix)).reduce((sum, entry) => sum + entry.bytes, 0);
  const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
  process.stdout.write(
    `precompressed ${written.length} files: brotli ${kib(total('.br'))}, gzip ${kib(total('.gz'))}\n`,
  );
}
