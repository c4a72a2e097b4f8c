import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError } from '../src/db/data-dir-lock.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'planwright-lock-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('data directory lock', () => {
  it('writes our pid and removes the file on release', () => {
    const lock = acquireDataDirLock(dir);
    expect(readFileSync(join(dir, 'planwright.lock'), 'utf8')).toBe(String(process.pid));
    lock.release();
    lock.release();
    expect(existsSync(join(dir, 'planwright.lock'))).toBe(false);
  });

  it('refuses a directory held by another live process, naming it', async () => {
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      writeFileSync(join(dir, 'planwright.lock'), String(holder.pid));
      expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
      expect(() => acquireDataDirLock(dir)).toThrow(`(pid ${holder.pid})`);
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('takes over a lock left by a process that died', async () => {
    const dead = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await new Promise((resolve) => dead.on('exit', resolve));
    writeFileSync(join(dir, 'planwright.lock'), String(dead.pid));
    const lock = acquireDataDirLock(dir);
    expect(readFileSync(join(dir, 'planwright.lock'), 'utf8')).toBe(String(process.pid));
    lock.release();
  });

  it('takes over a lock file with garbage in it', () => {
    writeFileSync(join(dir, 'planwright.lock'), 'not a pid');
    acquireDataDirLock(dir).release();
  });
});
