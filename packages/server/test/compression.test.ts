import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createSignedInUser, type SignedInUser } from './support/signed-in-user.js';
import { createTestApp, type TestApp, writeFakeWebApp } from './support/test-app.js';

const PRECOMPRESS = fileURLToPath(new URL('../../web/scripts/precompress-assets.mjs', import.meta.url));

/** A fake build big enough to compress, precompressed by the web build's own step. */
function writeCompressedWebApp(dir: string): string {
  const webDir = writeFakeWebApp(dir);
  const script = Array.from({ length: 400 }, (_, i) => `export const value${i} = "entry ${i}";`).join('\n');
  writeFileSync(join(webDir, 'assets', 'index-abc123.js'), script);
  writeFileSync(
    join(webDir, 'index.html'),
    `<!doctype html><title>Planwright</title><div id="root"></div>${'<!-- padding -->'.repeat(100)}`,
  );
  execFileSync(process.execPath, [PRECOMPRESS, webDir]);
  return webDir;
}

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A real HTTP GET that keeps the body as it came over the wire (fetch would decompress it). */
function get(base: string, path: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, base), { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function decode(answer: RawAnswer): Buffer {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(answer.body);
  if (encoding === 'gzip') return gunzipSync(answer.body);
  if (encoding === undefined) return answer.body;
  throw new Error(`unexpected content-encoding ${String(encoding)}`);
}

const varies = (answer: RawAnswer) =>
  String(answer.headers.vary ?? '')
    .toLowerCase()
    .split(',')
    .map((value) => value.trim())
    .includes('accept-encoding');

let t: TestApp;
let base: string;
let webDir: string;
let user: SignedInUser;
let documentPath: string;

beforeAll(async () => {
  webDir = writeCompressedWebApp(mkdtempSync(join(tmpdir(), 'planwright-compression-')));
  t = await createTestApp({ PLANWRIGHT_WEB_DIR: webDir });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  user = await createSignedInUser(t, { email: 'compression@example.com' });
  // A plan from the default blueprint: its content is well above the threshold.
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/v1/documents/',
    headers: user.headers,
    payload: { title: 'Compressed plan' },
  });
  expect(created.statusCode, created.body).toBe(201);
  documentPath = `/api/v1/documents/${created.json().uuid}/`;
});
afterAll(async () => {
  await t?.close();
});

describe('compressed static assets (precompressed at build time)', () => {
  const asset = '/assets/index-abc123.js';

  it('sends brotli to a client that accepts it, the same bytes once decoded, cached as immutable', async () => {
    const answer = await get(base, asset, { 'accept-encoding': 'br, gzip' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(varies(answer)).toBe(true);
    const original = readFileSync(join(webDir, 'assets', 'index-abc123.js'));
    expect(answer.body.length).toBeLessThan(original.length / 3);
    expect(decode(answer).equals(original)).toBe(true);
    // The file the build wrote, not one compressed per request.
    expect(answer.body.equals(readFileSync(join(webDir, 'assets', 'index-abc123.js.br')))).toBe(true);
  });

  it('sends gzip to a client that takes only gzip', async () => {
    const answer = await get(base, asset, { 'accept-encoding': 'gzip' });
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(decode(answer).equals(readFileSync(join(webDir, 'assets', 'index-abc123.js')))).toBe(true);
  });

  it('sends the plain file for identity, or with no Accept-Encoding at all', async () => {
    const original = readFileSync(join(webDir, 'assets', 'index-abc123.js'));
    for (const headers of [{ 'accept-encoding': 'identity' }, {}] as Record<string, string>[]) {
      const answer = await get(base, asset, headers);
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.body.equals(original)).toBe(true);
      expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(varies(answer)).toBe(true);
    }
  });

  it('never caches index.html, compressed or not, at / and at client routes', async () => {
    const original = readFileSync(join(webDir, 'index.html'));
    for (const path of ['/', '/dashboard/documents', '/pricing?plan=team']) {
      const compressed = await get(base, path, { 'accept-encoding': 'br, gzip' });
      expect(compressed.status).toBe(200);
      expect(compressed.headers['cache-control']).toBe('no-cache');
      expect(compressed.headers['content-encoding']).toBe('br');
      expect(compressed.headers['content-type']).toMatch(/^text\/html/);
      expect(decode(compressed).equals(original)).toBe(true);
      const plain = await get(base, path, { 'accept-encoding': 'identity' });
      expect(plain.headers['cache-control']).toBe('no-cache');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.equals(original)).toBe(true);
    }
  });

  it('still answers 404 for a missing asset, whatever the client accepts', async () => {
    const answer = await get(base, '/assets/index-missing.js', { 'accept-encoding': 'br, gzip' });
    expect(answer.status).toBe(404);
    expect(JSON.parse(decode(answer).toString('utf8'))).toMatchObject({ code: 'not_found' });
  });
});

describe('compressed JSON answers', () => {
  it('compresses a document read with brotli at a client that accepts it', async () => {
    const plain = await get(base, documentPath, { ...user.headers, 'accept-encoding': 'identity' });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(varies(plain)).toBe(true);

    const br = await get(base, documentPath, { ...user.headers, 'accept-encoding': 'br, gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(varies(br)).toBe(true);
    expect(br.body.length).toBeLessThan(plain.body.length / 2);
    expect(JSON.parse(decode(br).toString('utf8'))).toEqual(JSON.parse(plain.body.toString('utf8')));
    expect(br.headers.etag).toBe(plain.headers.etag);

    const gzip = await get(base, documentPath, { ...user.headers, 'accept-encoding': 'gzip;q=1, br;q=0' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decode(gzip).toString('utf8'))).toEqual(JSON.parse(plain.body.toString('utf8')));
  });

  it('leaves an answer below the threshold plain', async () => {
    const health = await get(base, '/api/v1/health', { 'accept-encoding': 'br, gzip' });
    expect(health.status).toBe(200);
    expect(health.body.length).toBeLessThan(1024);
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(health.body.toString('utf8'))).toMatchObject({ status: 'ok' });
  });

  it('compresses a Markdown export and leaves a .docx (already a zip) as it is', async () => {
    const markdown = await get(base, `${documentPath}export`, { ...user.headers, 'accept-encoding': 'br' });
    expect(markdown.status).toBe(200);
    const plainMarkdown = await get(base, `${documentPath}export`, {
      ...user.headers,
      'accept-encoding': 'identity',
    });
    expect(decode(markdown).toString('utf8')).toBe(plainMarkdown.body.toString('utf8'));
    expect(plainMarkdown.body.length).toBeGreaterThan(1024);
    expect(markdown.headers['content-encoding']).toBe('br');

    const docx = await get(base, `${documentPath}export?format=docx`, {
      ...user.headers,
      'accept-encoding': 'br, gzip',
    });
    expect(docx.status).toBe(200);
    expect(docx.headers['content-encoding']).toBeUndefined();
    expect(docx.body.subarray(0, 2).toString('latin1')).toBe('PK');
  });

  it('refuses a gzip-encoded request body instead of inflating it (a small upload could inflate past the limits)', async () => {
    const answer = await t.app.inject({
      method: 'PATCH',
      url: documentPath,
      headers: { ...user.headers, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ title: 'Inflated' })),
    });
    expect(answer.statusCode).toBe(400);
    const after = await get(base, documentPath, { ...user.headers, 'accept-encoding': 'identity' });
    expect(JSON.parse(after.body.toString('utf8')).title).not.toBe('Inflated');
  });
});

describe('the chat WebSocket beside compression', () => {
  it('still upgrades a client that accepts compressed answers', async () => {
    const url = `${base.replace(/^http/, 'ws')}${documentPath.replace('/api/v1/documents/', '/ws/document/')}chat/`;
    const ws = new WebSocket(url, { headers: { 'accept-encoding': 'br, gzip' } });
    const upgrade = await new Promise<{ status: number; encoding: unknown }>((resolve, reject) => {
      ws.once('upgrade', (response) =>
        resolve({ status: response.statusCode ?? 0, encoding: response.headers['content-encoding'] }),
      );
      ws.once('unexpected-response', (_request, response) =>
        reject(new Error(`answered ${response.statusCode} instead of upgrading`)),
      );
      ws.once('error', reject);
    });
    expect(upgrade).toEqual({ status: 101, encoding: undefined });
    ws.terminate();
  });
});
