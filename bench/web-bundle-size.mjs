#!/usr/bin/env node
// Web bundle: the gzip size of the JavaScript the browser loads for `/` — the entry script and every
// module it preloads — read from the production build's index.html. Lazy route chunks are not counted.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = fileURLToPath(new URL('../packages/web/dist/', import.meta.url));
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const scripts = [...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g)].map((m) => m[1]);
const preloads = [...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g)].map((m) => m[1]);
const styles = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+\.css)"/g)].map((m) => m[1]);

const size = (files) =>
  files.reduce(
    (total, file) => {
      const bytes = readFileSync(join(dist, file.replace(/^\//, '')));
      return { raw: total.raw + bytes.length, gzip: total.gzip + gzipSync(bytes, { level: 9 }).length };
    },
    { raw: 0, gzip: 0 },
  );

const js = size([...new Set([...scripts, ...preloads])]);
const css = size(styles);
const kib = (n) => Math.round((n / 1024) * 10) / 10;
console.log(
  JSON.stringify({
    bench: 'web-bundle-size',
    title: 'Web production bundle loaded by /',
    method:
      'Entry <script> plus <link rel=modulepreload> files in packages/web/dist/index.html, gzip level 9.',
    results: [
      {
        name: 'JS loaded by / (gzip)',
        unit: 'KiB',
        value: kib(js.gzip),
        target: '≤ 120 KiB',
        pass: js.gzip <= 120 * 1024,
      },
      { name: 'JS loaded by / (raw)', unit: 'KiB', value: kib(js.raw), target: 'reported', pass: null },
      { name: 'CSS loaded by / (gzip)', unit: 'KiB', value: kib(css.gzip), target: 'reported', pass: null },
    ],
    files: [...new Set([...scripts, ...preloads, ...styles])],
  }),
);
