import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, useTempDir } from './support/run-cli.js';

describe('planwright config', () => {
  const dir = useTempDir();
  const cli = (...args: string[]) => runCli(args, { PLANWRIGHT_CONFIG_DIR: dir.path });
  const fileExists = () =>
    stat(join(dir.path, 'config.json')).then(
      () => true,
      () => false,
    );

  it('path prints where the file is, as text or JSON', async () => {
    expect(await cli('config', 'path')).toEqual({
      exitCode: 0,
      stdout: `${join(dir.path, 'config.json')}\n`,
      stderr: '',
    });
    expect(JSON.parse((await cli('config', 'path', '--json')).stdout)).toEqual({
      path: join(dir.path, 'config.json'),
    });
  });

  it('set stores a normalised value that get and list then show', async () => {
    expect(await cli('config', 'set', 'server', 'https://plans.example.com/')).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: '',
    });
    expect(JSON.parse(await readFile(join(dir.path, 'config.json'), 'utf8'))).toEqual({
      server: 'https://plans.example.com',
    });
    expect(await cli('config', 'get', 'server')).toEqual({
      exitCode: 0,
      stdout: 'https://plans.example.com\n',
      stderr: '',
    });
    expect(JSON.parse((await cli('config', 'get', 'server', '--json')).stdout)).toEqual({
      key: 'server',
      value: 'https://plans.example.com',
    });
    expect((await cli('config', 'list')).stdout).toBe('server=https://plans.example.com\n');
    expect(JSON.parse((await cli('config', 'list', '--json')).stdout)).toEqual({
      server: 'https://plans.example.com',
    });
  });

  it('set --json echoes what was stored', async () => {
    const result = await cli('--json', 'config', 'set', 'server', 'http://127.0.0.1:9000/');
    expect(JSON.parse(result.stdout)).toEqual({ key: 'server', value: 'http://127.0.0.1:9000' });
  });

  it('list says when nothing is set, and --json gives an empty object', async () => {
    expect((await cli('config', 'list')).stdout).toBe(
      `No settings in ${join(dir.path, 'config.json')}: defaults apply.\n`,
    );
    expect(JSON.parse((await cli('config', 'list', '--json')).stdout)).toEqual({});
    expect(await fileExists()).toBe(false);
  });

  it('get of a setting that is not set fails with exit 1 and says how to set it', async () => {
    expect(await cli('config', 'get', 'server')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: `planwright: server is not set in ${join(dir.path, 'config.json')}\nSet it with \`planwright config set server <value>\`.\n`,
    });
  });

  it('unset removes a setting and reports whether there was one', async () => {
    await cli('config', 'set', 'server', 'http://a.example');
    expect(JSON.parse((await cli('config', 'unset', 'server', '--json')).stdout)).toEqual({
      key: 'server',
      removed: true,
    });
    expect(JSON.parse(await readFile(join(dir.path, 'config.json'), 'utf8'))).toEqual({});
    expect(JSON.parse((await cli('config', 'unset', 'server', '--json')).stdout)).toEqual({
      key: 'server',
      removed: false,
    });
  });

  it('unset of a setting that is not set does not create the file', async () => {
    expect((await cli('config', 'unset', 'server')).exitCode).toBe(0);
    expect(await fileExists()).toBe(false);
  });

  it.each([['get'], ['unset'], ['set', 'x']])(
    '%s rejects an unknown key with exit 2',
    async (verb, ...rest) => {
      const result = await cli('config', verb, 'colour', ...rest);
      expect(result).toEqual({
        exitCode: 2,
        stdout: '',
        stderr: `planwright: <key>: unknown setting "colour" (known: server)\nRun \`planwright config ${verb} --help\` for usage.\n`,
      });
    },
  );

  it('set rejects an invalid value with exit 2 and writes nothing', async () => {
    const result = await cli('config', 'set', 'server', 'localhost:8787');
    expect(result).toEqual({
      exitCode: 2,
      stdout: '',
      stderr:
        'planwright: server: "localhost:8787" needs http:// or https:// in front (did you mean http://localhost:8787?)\n' +
        'Run `planwright config set --help` for usage.\n',
    });
    expect(await fileExists()).toBe(false);
  });

  it('set needs both a key and a value', async () => {
    const result = await cli('config', 'set', 'server');
    expect(result).toMatchObject({ exitCode: 2 });
    expect(result.stderr).toContain("planwright: missing required argument 'value'");
  });

  it('shows its help on stderr with exit 2 when no subcommand is given', async () => {
    const result = await cli('config');
    expect(result).toMatchObject({ exitCode: 2 });
    expect(result.stderr).toMatch(/^Usage: planwright config /);
  });
});
