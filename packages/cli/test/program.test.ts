import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, useTempDir } from './support/run-cli.js';

const packageVersion = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

describe('planwright program', () => {
  const dir = useTempDir();

  it('prints the version from package.json with --version and -v', async () => {
    for (const flag of ['--version', '-v']) {
      const result = await runCli([flag]);
      expect(result).toEqual({ exitCode: 0, stdout: `${packageVersion}\n`, stderr: '' });
    }
  });

  it('prints help with the commands, global options and exit codes on stdout', async () => {
    const result = await runCli(['--help']);
    expect(result).toMatchObject({ exitCode: 0 });
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^Usage: planwright /);
    for (const text of [
      'status',
      'login',
      'whoami',
      'logout',
      'config',
      'share [options] <uuid>',
      'members <uuid>',
      'invitations',
      'comment [options] <uuid>',
      'comments [options] <uuid>',
      'orgs',
      '--server <url>',
      '--json',
      'PLANWRIGHT_SERVER',
      'Exit codes:',
      '130 cancelled',
    ]) {
      expect(result.stdout).toContain(text);
    }
  });

  it('prints the help of a subcommand, including the settings config knows', async () => {
    const result = await runCli(['config', '--help']);
    expect(result).toMatchObject({ exitCode: 0 });
    expect(result.stdout).toMatch(/^Usage: planwright config /);
    expect(result.stdout).toMatch(/Settings:\n\s+server\s+URL of the Planwright server/);
  });

  it('prints the help of login with its options and an example for scripts', async () => {
    const result = await runCli(['login', '--help']);
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    for (const text of ['--email <address>', '--password-stdin', 'session.json', 'printf %s']) {
      expect(result.stdout).toContain(text);
    }
  });

  it('shows the help on stderr and exits 2 when no command is given', async () => {
    const result = await runCli([]);
    expect(result).toMatchObject({ exitCode: 2 });
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^Usage: planwright /);
  });

  it('reports an unknown command on one line with a suggestion, exit 2', async () => {
    const result = await runCli(['stats']);
    expect(result).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: "planwright: unknown command 'stats'\nDid you mean status?\n",
    });
  });

  it('reports an unknown option and a missing argument as usage errors', async () => {
    const unknown = await runCli(['status', '--bogus']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toBe("planwright: unknown option '--bogus'\nRun `planwright --help` for usage.\n");

    const missing = await runCli(['config', 'get'], { PLANWRIGHT_CONFIG_DIR: dir.path });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain("planwright: missing required argument 'key'");
  });

  it('rejects extra arguments', async () => {
    const result = await runCli(['status', 'now']);
    expect(result).toMatchObject({ exitCode: 2 });
    expect(result.stderr).toMatch(/^planwright: too many arguments/);
  });

  it('accepts the global options before and after the command', async () => {
    const env = { PLANWRIGHT_CONFIG_DIR: dir.path };
    const before = await runCli(['--json', 'config', 'path'], env);
    const after = await runCli(['config', 'path', '--json'], env);
    expect(before.exitCode).toBe(0);
    expect(JSON.parse(before.stdout)).toEqual({ path: join(dir.path, 'config.json') });
    expect(after).toEqual(before);
  });

  it('validates --server as an http(s) URL with a clear usage error', async () => {
    const cases: Array<[string, string]> = [
      ['not-a-url', '--server: "not-a-url" is not a URL; expected something like http://127.0.0.1:8787'],
      ['ftp://example.com', '--server: "ftp://example.com" must start with http:// or https://'],
      [
        'http://user:secret@example.com',
        '--server: "http://user:secret@example.com" must not contain a user name or password',
      ],
      [
        'http://example.com/?a=1',
        '--server: "http://example.com/?a=1" must not have a query (?…) or fragment (#…)',
      ],
    ];
    for (const [value, message] of cases) {
      const result = await runCli(['--server', value, 'status'], { PLANWRIGHT_CONFIG_DIR: dir.path });
      expect(result).toEqual({
        exitCode: 2,
        stdout: '',
        stderr: `planwright: ${message}\nRun \`planwright status --help\` for usage.\n`,
      });
    }
  });

  it('reports a usage error as JSON on stderr with --json, keeping stdout empty', async () => {
    const result = await runCli(['--json', '--server', 'nope', 'status'], {
      PLANWRIGHT_CONFIG_DIR: dir.path,
    });
    expect(result).toMatchObject({ exitCode: 2 });
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toEqual({
      error: {
        code: 'usage',
        message: '--server: "nope" is not a URL; expected something like http://127.0.0.1:8787',
        suggestion: 'Run `planwright status --help` for usage.',
        exitCode: 2,
      },
    });
  });
});
