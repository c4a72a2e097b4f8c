// The baseline page of the keystroke benchmark: bench/editor-bare/ built with the repository's own Vite
// (JS API, inline config, production mode) into a temporary directory, with the plan written next to
// it as content.html, served over loopback HTTP by a static file server.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const source = fileURLToPath(new URL('./editor-bare/', import.meta.url));
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css' };

/**
 * Builds the bare editor page, writes `html` as its content and serves both. Answers the page URL,
 * the gzip-free byte size of its JS, and `close()`, which stops the server and removes the build.
 */
export async function serveBarePage(html) {
  const outDir = mkdtempSync(join(tmpdir(), 'planwright-bench-bare-'));
  try {
    const output = await build({
      configFile: false,
      root: source,
      base: './',
      logLevel: 'warn',
      mode: 'production',
      build: { outDir, emptyOutDir: true, reportCompressedSize: false },
    });
    writeFileSync(join(outDir, 'content.html'), html);
    const chunks = (Array.isArray(output) ? output : [output]).flatMap((result) => result.output ?? []);
    const jsFiles = chunks.filter((chunk) => chunk.type === 'chunk').map((chunk) => chunk.fileName);
    const server = createServer((request, response) => {
      const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname));
      const file = join(outDir, path === '/' ? 'index.html' : path);
      if (!file.startsWith(outDir)) {
        response.writeHead(404).end();
        return;
      }
      try {
        const body = readFileSync(file);
        response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
        response.end(body);
      } catch {
        response.writeHead(404).end();
      }
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${server.address().port}/`,
      jsFiles: jsFiles.map((file) => join(outDir, file)),
      close: async () => {
        await new Promise((resolve) => server.close(resolve));
        rmSync(outDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(outDir, { recursive: true, force: true });
    throw error;
  }
}
