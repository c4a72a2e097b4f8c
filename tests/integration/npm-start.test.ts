import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'planwright-npm-start-'));

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

/** Runs `npm start` (the README's command) and resolves once it prints its URL. */
async function npmStart(): Promise<{ url: string; child: ChildProcess; output: () => string }> {
  const child = spawn('npm', ['start'], {
    cwd: root,
    env: { ...process.env, PORT: '0', PLANWRIGHT_DATA_DIR: dataDir, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const append = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', () => {
      const match = /Planwright is running at (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.on('exit', (code) => reject(new Error(`npm start exited with ${code} before serving:\n${output}`)));
  });
  return { url, child, output: () => output };
}

/** Ends the whole process group at once; it may already be gone. */
function killGroup(child: ChildProcess): void {
  try {
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  } catch {}
}

/**
 * Presses Ctrl+C: SIGINT to the whole process group, as a terminal does. npm itself then dies by the
 * signal (that is npm's way), so what tells a clean stop is the server's own last log line.
 */
async function stop(started: { child: ChildProcess; output: () => string }): Promise<void> {
  await new Promise<void>((resolve) => {
    started.child.on('exit', () => resolve());
    if (started.child.pid) process.kill(-started.child.pid, 'SIGINT');
  });
  // npm dies by the signal at once; the server, its grandchild, logs its last line a moment later.
  await expect.poll(() => started.output(), { timeout: 15_000 }).toContain('shutdown complete');
}

describe('npm start', () => {
  it('serves the web app at / and the API at /api/v1/, and a second start reuses the data', async () => {
    const first = await npmStart();
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

    const second = await npmStart();
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
