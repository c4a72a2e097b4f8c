import { chmod, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionFileError } from '../src/errors/cli-error.js';
import { FileTokenStore } from '../src/session/file-token-store.js';
import { readSessionFile, sessionFilePath } from '../src/session/session-file.js';
import { useTempDir } from './support/run-cli.js';

const A = 'http://127.0.0.1:8787';
const B = 'https://plans.example.com/planwright';
const mode = async (path: string) => (await stat(path)).mode & 0o777;
const readJson = async (path: string): Promise<unknown> => JSON.parse(await readFile(path, 'utf8'));

describe('the session file token store', () => {
  const dir = useTempDir();
  const file = () => join(dir.path, 'session.json');

  it('lives beside config.json, in PLANWRIGHT_CONFIG_DIR when set', () => {
    const io = {
      stdout: { write: () => {} },
      stderr: { write: () => {} },
      env: { PLANWRIGHT_CONFIG_DIR: '/x/y' },
    };
    expect(sessionFilePath(io)).toBe('/x/y/session.json');
  });

  it('starts signed out when there is no file, and creates none just by reading', async () => {
    const store = await FileTokenStore.open(file(), A);
    expect(store.getSnapshot()).toEqual({ token: null, email: null, name: null, avatarUrl: null });
    await store.flush();
    expect(await readdir(dir.path)).toEqual([]);
  });

  it('writes a session keyed by server URL and reads it back in a new store', async () => {
    const store = await FileTokenStore.open(file(), A);
    store.setSession({ token: 't-1', email: 'ada@example.com', name: 'Ada Lovelace' });
    await store.flush();
    expect(await readJson(file())).toEqual({
      sessions: { [A]: { token: 't-1', email: 'ada@example.com', name: 'Ada Lovelace', avatarUrl: null } },
    });
    const again = await FileTokenStore.open(file(), A);
    expect(again.getSnapshot()).toEqual({
      token: 't-1',
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      avatarUrl: null,
    });
  });

  it('keeps the sessions of two servers apart: signing in to one keeps the other, clearing one keeps the other', async () => {
    const a = await FileTokenStore.open(file(), A);
    const b = await FileTokenStore.open(file(), B);
    a.setSession({ token: 'token-a', email: 'ada@example.com' });
    await a.flush();
    b.setSession({ token: 'token-b', email: 'bob@example.com' });
    await b.flush();
    expect((await FileTokenStore.open(file(), A)).getToken()).toBe('token-a');
    expect((await FileTokenStore.open(file(), B)).getToken()).toBe('token-b');

    a.clear();
    await a.flush();
    expect(await readJson(file())).toEqual({
      sessions: { [B]: { token: 'token-b', email: 'bob@example.com', name: null, avatarUrl: null } },
    });
  });

  it('applies changes in order, the last one winning', async () => {
    const store = await FileTokenStore.open(file(), A);
    store.setSession({ token: 'pending', email: 'ada@example.com' });
    store.clear();
    store.setSession({ token: 'final' });
    await store.flush();
    expect((await readSessionFile(file())).sessions[A]?.token).toBe('final');
  });

  it.skipIf(process.platform === 'win32')('creates the file 0600 in a new 0700 directory', async () => {
    const nested = join(dir.path, 'a', 'b', 'session.json');
    const previousUmask = process.umask(0o022);
    try {
      const store = await FileTokenStore.open(nested, A);
      store.setSession({ token: 'secret' });
      await store.flush();
    } finally {
      process.umask(previousUmask);
    }
    expect(await mode(nested)).toBe(0o600);
    expect(await mode(join(dir.path, 'a', 'b'))).toBe(0o700);
    expect(await mode(join(dir.path, 'a'))).toBe(0o700);
  });

  it.skipIf(process.platform === 'win32')('replaces a world-readable file with a 0600 one', async () => {
    await writeFile(file(), '{"sessions":{}}\n', { mode: 0o644 });
    await chmod(file(), 0o644);
    const store = await FileTokenStore.open(file(), A);
    store.setSession({ token: 'secret' });
    await store.flush();
    expect(await mode(file())).toBe(0o600);
  });

  it('writes atomically: a new file renamed into place, no temporary files left', async () => {
    const store = await FileTokenStore.open(file(), A);
    store.setSession({ token: 'one' });
    await store.flush();
    const before = (await stat(file())).ino;
    store.setSession({ token: 'two' });
    await store.flush();
    expect((await stat(file())).ino).not.toBe(before);
    expect(await readdir(dir.path)).toEqual(['session.json']);
  });

  it('keeps top-level keys it does not know', async () => {
    await writeFile(file(), JSON.stringify({ sessions: {}, futureKey: [1, 2] }));
    const store = await FileTokenStore.open(file(), A);
    store.setSession({ token: 't' });
    await store.flush();
    expect(await readJson(file())).toMatchObject({ futureKey: [1, 2], sessions: { [A]: { token: 't' } } });
  });

  it.each([
    ['not JSON', '{"sessions": ', 'is not valid JSON ('],
    ['not an object', '[]', 'is invalid: Invalid input: expected object, received array'],
    [
      'a session without a token',
      JSON.stringify({ sessions: { [A]: { email: 'a@b.c' } } }),
      `is invalid: sessions.${A}.token:`,
    ],
    [
      'an empty token',
      JSON.stringify({ sessions: { [A]: { token: '' } } }),
      `is invalid: sessions.${A}.token: Too small`,
    ],
  ])('reports a file that is %s in one line naming the file', async (_name, content, reason) => {
    await writeFile(file(), content);
    const opening = FileTokenStore.open(file(), A);
    await expect(opening).rejects.toBeInstanceOf(SessionFileError);
    await expect(opening).rejects.toThrow(`the session file ${file()} ${reason}`);
    const error = (await opening.catch((caught: unknown) => caught)) as SessionFileError;
    expect(error.message).not.toContain('\n');
    expect(error.suggestion).toBe(
      'Delete it and sign in again with `planwright login`: it only holds session tokens.',
    );
  });

  it('reports a failed update from flush(), once, as a SessionFileError', async () => {
    const store = await FileTokenStore.open(join(dir.path, 'sub', 'session.json'), A);
    // A file where the directory should be: fails for root too (a read-only directory would not).
    await writeFile(join(dir.path, 'sub'), '');
    store.setSession({ token: 't' });
    const flushing = store.flush();
    await expect(flushing).rejects.toBeInstanceOf(SessionFileError);
    await expect(flushing).rejects.toThrow(
      /^cannot read the session file .*sub\/session\.json: a parent is not a directory \(ENOTDIR\)$/,
    );
    // The store still works from memory, and the failure is not reported twice.
    expect(store.getToken()).toBe('t');
    await expect(store.flush()).resolves.toBeUndefined();
  });

  it.skipIf(process.platform === 'win32')(
    'reports a directory it may not write to, with what to do',
    async () => {
      const locked = join(dir.path, 'locked');
      const asRoot = process.getuid?.() === 0;
      await mkdir(locked, { mode: asRoot ? 0o700 : 0o500 });
      const store = await FileTokenStore.open(join(locked, 'session.json'), A);
      if (asRoot) {
        // Root ignores permission bits, so as root the directory is made unwritable another way:
        // it becomes a file between the read and the write.
        await rm(locked, { recursive: true });
        await writeFile(locked, '');
      }
      store.setSession({ token: 't' });
      const error = (await store.flush().catch((caught: unknown) => caught)) as SessionFileError;
      expect(error.message).toMatch(
        new RegExp(
          // flush() re-reads the file before writing, so a vanished directory fails on the read.
          `^cannot ${asRoot ? 'read' : 'write'} the session file ${join(locked, 'session.json')}: .+ \\(${asRoot ? 'ENOTDIR' : 'EACCES'}\\)$`,
        ),
      );
      expect(error.suggestion).toBe(
        asRoot
          ? `Check the permissions of ${join(locked, 'session.json')}.`
          : `Check the permissions of ${locked}, or set PLANWRIGHT_CONFIG_DIR to another directory.`,
      );
    },
  );

  it('reports a directory in the way of the file as unreadable, naming it', async () => {
    await mkdir(file());
    await expect(FileTokenStore.open(file(), A)).rejects.toThrow(
      `cannot read the session file ${file()}: it is a directory (EISDIR)`,
    );
  });
});
