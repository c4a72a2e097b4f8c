import { chmod, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configFilePath, readConfigFile, writeConfigFile } from '../src/config/config-file.js';
import { ConfigFileError } from '../src/errors/cli-error.js';
import { runCli, useTempDir } from './support/run-cli.js';

const io = (env: Record<string, string>) => ({
  stdout: { write: () => {} },
  stderr: { write: () => {} },
  env,
});
const mode = async (path: string) => (await stat(path)).mode & 0o777;

describe('config file location', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('is config.json in PLANWRIGHT_CONFIG_DIR when set', () => {
    vi.stubEnv('XDG_CONFIG_HOME', '/xdg');
    expect(configFilePath(io({ PLANWRIGHT_CONFIG_DIR: '/custom/dir' }))).toBe('/custom/dir/config.json');
  });

  it.skipIf(process.platform === 'win32' || process.platform === 'darwin')(
    'honours XDG_CONFIG_HOME otherwise (no "-nodejs" suffix)',
    () => {
      vi.stubEnv('XDG_CONFIG_HOME', '/xdg/config');
      expect(configFilePath(io({}))).toBe('/xdg/config/planwright/config.json');
      expect(configFilePath(io({ PLANWRIGHT_CONFIG_DIR: '' }))).toBe('/xdg/config/planwright/config.json');
    },
  );
});

describe('reading and writing the config file', () => {
  const dir = useTempDir();
  const file = () => join(dir.path, 'config.json');

  it('reads a missing file as empty settings', async () => {
    await expect(readConfigFile(file())).resolves.toEqual({});
  });

  it('writes JSON that reads back the same', async () => {
    await writeConfigFile(file(), { server: 'https://plans.example.com' });
    expect(JSON.parse(await readFile(file(), 'utf8'))).toEqual({ server: 'https://plans.example.com' });
    await expect(readConfigFile(file())).resolves.toEqual({ server: 'https://plans.example.com' });
  });

  it.skipIf(process.platform === 'win32')('creates missing directories 0700 and the file 0600', async () => {
    const nested = join(dir.path, 'a', 'b', 'config.json');
    const previousUmask = process.umask(0o022);
    try {
      await writeConfigFile(nested, { server: 'http://127.0.0.1:1' });
    } finally {
      process.umask(previousUmask);
    }
    expect(await mode(nested)).toBe(0o600);
    expect(await mode(join(dir.path, 'a', 'b'))).toBe(0o700);
    expect(await mode(join(dir.path, 'a'))).toBe(0o700);
  });

  it.skipIf(process.platform === 'win32')(
    'replaces an existing world-readable file with a 0600 one',
    async () => {
      await writeFile(file(), '{}\n', { mode: 0o644 });
      await chmod(file(), 0o644);
      await writeConfigFile(file(), { server: 'http://127.0.0.1:1' });
      expect(await mode(file())).toBe(0o600);
    },
  );

  it('replaces the file by rename and leaves no temporary files behind', async () => {
    await writeFile(file(), '{"server":"http://old.example"}\n');
    const before = (await stat(file())).ino;
    await writeConfigFile(file(), { server: 'http://new.example' });
    // A new inode: the content was not rewritten in place (a reader never sees half a file).
    expect((await stat(file())).ino).not.toBe(before);
    expect(await readdir(dir.path)).toEqual(['config.json']);
  });

  it('keeps keys it does not know, so a newer planwright loses nothing', async () => {
    await writeFile(file(), JSON.stringify({ server: 'http://a.example', theme: { dark: true } }));
    const result = await runCli(['config', 'set', 'server', 'http://b.example'], {
      PLANWRIGHT_CONFIG_DIR: dir.path,
    });
    expect(result).toMatchObject({ exitCode: 0 });
    expect(JSON.parse(await readFile(file(), 'utf8'))).toEqual({
      server: 'http://b.example',
      theme: { dark: true },
    });
  });

  it('reports a file that is not JSON as a ConfigFileError naming the file', async () => {
    await writeFile(file(), '{ "server": ');
    const reading = readConfigFile(file());
    await expect(reading).rejects.toBeInstanceOf(ConfigFileError);
    await expect(reading).rejects.toThrow(`the config file ${file()} is not valid JSON (`);
  });

  it.each([
    [
      'a value that fails its schema',
      { server: 'ftp://x' },
      'is invalid: server: "ftp://x" must start with http:// or https://',
    ],
    [
      'a value of the wrong type',
      { server: 42 },
      'is invalid: server: Invalid input: expected string, received number',
    ],
    ['JSON that is not an object', ['server'], 'is invalid: Invalid input: expected object, received array'],
  ])('reports %s, naming the file and the setting', async (_name, content, message) => {
    await writeFile(file(), JSON.stringify(content));
    await expect(readConfigFile(file())).rejects.toThrow(`the config file ${file()} ${message}`);
  });

  it('reports a config path that cannot be read (a directory) clearly', async () => {
    await mkdir(file());
    await expect(readConfigFile(file())).rejects.toThrow(
      `cannot read the config file ${file()}: it is a directory (EISDIR)`,
    );
  });

  it('reports a config directory that cannot be created, without leaving anything behind', async () => {
    const blocker = join(dir.path, 'not-a-dir');
    await writeFile(blocker, 'x');
    const writing = writeConfigFile(join(blocker, 'config.json'), { server: 'http://a.example' });
    await expect(writing).rejects.toBeInstanceOf(ConfigFileError);
    await expect(writing).rejects.toThrow(
      `cannot write the config file ${join(blocker, 'config.json')}: a file is in the way of a directory (EEXIST)`,
    );
    expect(await readdir(dir.path)).toEqual(['not-a-dir']);
  });
});

describe('a broken config file on the command line', () => {
  const dir = useTempDir();

  it('gives one line naming the file and a suggestion, exit 1, never a stack trace', async () => {
    const path = join(dir.path, 'config.json');
    await writeFile(path, 'server = http://127.0.0.1:8787\n');
    const result = await runCli(['config', 'list'], { PLANWRIGHT_CONFIG_DIR: dir.path });
    expect(result).toMatchObject({ exitCode: 1 });
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^planwright: the config file ${path} is not valid JSON \\(.+\\)$`));
    expect(lines[1]).toBe('Fix it in an editor, or delete it to start over with the defaults.');
    expect(result.stderr).not.toMatch(/\bat .+:\d+:\d+/);
  });

  it('suggests the command that fixes an invalid setting', async () => {
    await writeFile(join(dir.path, 'config.json'), JSON.stringify({ server: 'localhost' }));
    const result = await runCli(['config', 'get', 'server'], { PLANWRIGHT_CONFIG_DIR: dir.path });
    expect(result).toMatchObject({ exitCode: 1 });
    expect(result.stderr).toContain('is invalid: server: "localhost" is not a URL');
    expect(result.stderr).toContain(
      'Fix it with `planwright config set server <value>` or `planwright config unset server`.',
    );
  });
});
