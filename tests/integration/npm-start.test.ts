import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { killGroup, npmStart, stopNpm as stop } from '../support/npm-start.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'planwright-npm-start-'));

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

/** `npm start` in the repository, over this file's data directory. */
const start = () =>
  npmStart({ cwd: root, env: { PORT: '0', PLANWRIGHT_DATA_DIR: dataDir, LOG_LEVEL: 'info' } });

describe('npm start', () => {
  it('serves the web app at / and the API at /api/v1/, and a second start reuses the data', async () => {
    const first = await start();
    let firstStopped = false;
    try {
      const page = await fetch(`${first.url}/`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('<div id="root"');
      const script = /<script[^>]+src="([^"]+\.js)"/.exec(html)?.[1];
      expect(script, 'index.html loads a script').toBeDefined();
      const scriptAnswer = await fetch(`${first.url}${script}`);
      expect(scriptAnswer.status).toBe(200);
      // Read it all: an unread body keeps the request in flight, and shutdown would wait for it.
      expect((await scriptAnswer.arrayBuffer()).byteLength).toBeGreaterThan(0);

      const health = await fetch(`${first.url}/api/v1/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok', database: 'pglite' });

      const contact = await fetch(`${first.url}/api/v1/apps/contact/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          first_name: 'Ada',
          last_name: 'L',
          email: 'ada@example.com',
          message: 'kept?',
        }),
      });
      expect(contact.status).toBe(201);
      await stop(first);
      firstStopped = true;
    } finally {
      if (!firstStopped) killGroup(first.child);
    }

    const second = await start();
    try {
      expect(second.output()).not.toContain('Building');
      const health = await fetch(`${second.url}/api/v1/health`);
      expect(health.status).toBe(200);
      const { openStorage } = await import('@planwright/server');
      // PGlite is single-process: read the stored message back once the server has let go of it.
      await stop(second);
      const storage = await openStorage({ kind: 'pglite', dataDir: join(dataDir, 'pglite') });
      try {
        expect((await storage.contactMessages.list()).map((row) => row.message)).toEqual(['kept?']);
      } finally {
        await storage.close();
      }
    } finally {
      if (second.child.exitCode === null) killGroup(second.child);
    }
  });
});
