import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { promptForCredentials } from '../src/login/login-prompt.js';
import { type FakeAuthServer, startFakeAuthServer } from './support/auth-server.js';
import { closedPortUrl } from './support/http-server.js';
import { runCli, useTempDir } from './support/run-cli.js';

// The Ink prompt itself is tested in login-prompt.test.tsx; here it stands in for a person typing.
vi.mock('../src/login/login-prompt.js', () => ({ promptForCredentials: vi.fn() }));

const PASSWORD = 'a-sturdy-harbour-passphrase';
const APP = '/_allauth/app/v1';
const GOOGLE_HINT =
  'Signed up with Google? Make a personal access token in Profile › Security on the web, then `planwright login --token-stdin`.';

describe('planwright login', () => {
  const dir = useTempDir();
  let server: FakeAuthServer;
  beforeEach(async () => {
    server = await startFakeAuthServer([
      { email: 'ada@example.com', password: PASSWORD, firstName: 'Ada', lastName: 'Lovelace' },
      { email: 'new@example.com', password: PASSWORD, verified: false },
      // Made with Google: no password.
      { email: 'grace@example.com', password: null, firstName: 'Grace', lastName: 'Hopper' },
    ]);
  });
  afterEach(async () => {
    await server.close();
    vi.mocked(promptForCredentials).mockReset();
  });

  const env = () => ({ PLANWRIGHT_CONFIG_DIR: dir.path, PLANWRIGHT_SERVER: server.url });
  const login = (args: string[], stdin?: string) =>
    runCli(['login', ...args], env(), stdin === undefined ? {} : { stdin });
  const storedSessions = async () =>
    (
      JSON.parse(await readFile(join(dir.path, 'session.json'), 'utf8')) as {
        sessions: Record<string, unknown>;
      }
    ).sessions;

  describe('with --password-stdin', () => {
    it('signs in, says who, and stores the token for this server', async () => {
      const result = await login(['--email', 'ada@example.com', '--password-stdin'], `${PASSWORD}\n`);
      expect(result).toEqual({
        exitCode: 0,
        stdout: `Signed in to ${server.url} as Ada Lovelace <ada@example.com>.\n`,
        stderr: '',
      });
      const loginRequest = server.seen.find((request) => request.path === `${APP}/auth/login`);
      expect(loginRequest?.body).toEqual({ email: 'ada@example.com', password: PASSWORD });
      const [token] = [...server.sessions.keys()];
      expect(await storedSessions()).toEqual({
        [server.url]: { token, email: 'ada@example.com', name: 'Ada Lovelace', avatarUrl: null },
      });
    });

    it('prints the user with --json', async () => {
      const result = await login(['--email', 'ada@example.com', '--password-stdin', '--json'], PASSWORD);
      expect(result.exitCode).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({
        id: expect.any(String),
        display: 'Ada Lovelace',
        email: 'ada@example.com',
        has_usable_password: true,
        has_verified_email: true,
        avatar_url: null,
      });
    });

    it('trims the e-mail address', async () => {
      expect((await login(['--email', ' ada@example.com ', '--password-stdin'], PASSWORD)).exitCode).toBe(0);
    });

    it('refuses a wrong password with the sign-in message, exit 1, and stores nothing', async () => {
      const result = await login(['--email', 'ada@example.com', '--password-stdin'], 'not-it\n');
      expect(result).toEqual({
        exitCode: 1,
        stdout: '',
        stderr:
          'planwright: The email address and/or password you specified are not correct.\n' +
          `Check the e-mail address and the password, then try again. ${GOOGLE_HINT}\n`,
      });
      await expect(stat(join(dir.path, 'session.json'))).rejects.toThrow();
    });

    it('gives the same Google hint for an account without a password and for an unknown address', async () => {
      const google = await login(['--email', 'grace@example.com', '--password-stdin'], PASSWORD);
      const unknown = await login(['--email', 'nobody@example.com', '--password-stdin'], PASSWORD);
      expect(google).toEqual(unknown);
      expect(google.stderr).toContain(GOOGLE_HINT);
    });

    it('explains a pending verification, exit 1, and keeps no pending token', async () => {
      const result = await login(['--email', 'new@example.com', '--password-stdin'], PASSWORD);
      expect(result).toEqual({
        exitCode: 1,
        stdout: '',
        stderr:
          'planwright: Please verify your email address before signing in.\n' +
          'Check your inbox: a new verification link is on its way to new@example.com. Open it, then run `planwright login` again.\n',
      });
      expect(await storedSessions()).toEqual({});
    });

    it('reports the pending verification as JSON on stderr with --json', async () => {
      const result = await login(['--email', 'new@example.com', '--password-stdin', '--json'], PASSWORD);
      expect(result.stdout).toBe('');
      expect(JSON.parse(result.stderr)).toEqual({
        error: {
          code: 'email_not_verified',
          message: 'Please verify your email address before signing in.',
          suggestion: expect.stringContaining('new@example.com'),
          exitCode: 1,
        },
      });
    });

    it('reports too many failed attempts for the account', async () => {
      server.canned.set(`POST ${APP}/auth/login`, {
        status: 400,
        body: {
          status: 400,
          errors: [
            { message: 'Too many failed login attempts. Try again later.', code: 'too_many_login_attempts' },
          ],
        },
      });
      const result = await login(['--email', 'ada@example.com', '--password-stdin', '--json'], PASSWORD);
      expect(result.exitCode).toBe(1);
      expect(JSON.parse(result.stderr).error).toMatchObject({
        code: 'too_many_login_attempts',
        message: 'Too many failed login attempts. Try again later.',
      });
    });

    it('says how long to wait when the server is rate limiting (429 with Retry-After)', async () => {
      server.canned.set(`POST ${APP}/auth/login`, {
        status: 429,
        body: { status: 429 },
        headers: { 'retry-after': '65' },
      });
      const result = await login(['--email', 'ada@example.com', '--password-stdin'], PASSWORD);
      expect(result).toEqual({
        exitCode: 1,
        stdout: '',
        stderr: 'planwright: Too many sign-in attempts. Please wait 1 minute 5 seconds and try again.\n',
      });
      server.canned.set(`POST ${APP}/auth/login`, { status: 429, body: { status: 429 } });
      expect((await login(['--email', 'ada@example.com', '--password-stdin'], PASSWORD)).stderr).toBe(
        'planwright: Too many sign-in attempts. Please wait a few minutes and try again.\n',
      );
    });

    it('says so when this computer is already signed in, and keeps that session', async () => {
      await login(['--email', 'ada@example.com', '--password-stdin'], PASSWORD);
      const before = await storedSessions();
      const result = await login(['--email', 'ada@example.com', '--password-stdin'], PASSWORD);
      expect(result).toEqual({
        exitCode: 1,
        stdout: '',
        stderr:
          `planwright: already signed in to ${server.url} as ada@example.com\n` +
          'Run `planwright logout` first to sign in as someone else.\n',
      });
      expect(await storedSessions()).toEqual(before);
      // Found out by asking the server first: no login was attempted.
      expect(server.seen.filter((request) => request.path === `${APP}/auth/login`)).toHaveLength(1);
    });

    it('also understands a 409 from the login itself', async () => {
      server.canned.set(`POST ${APP}/auth/login`, { status: 409, body: { status: 409 } });
      const result = await login(['--email', 'ada@example.com', '--password-stdin', '--json'], PASSWORD);
      expect(JSON.parse(result.stderr).error).toMatchObject({ code: 'already_signed_in', exitCode: 1 });
    });

    it('replaces a stored token the server no longer knows', async () => {
      await writeFile(
        join(dir.path, 'session.json'),
        JSON.stringify({
          sessions: { [server.url]: { token: 'dead' }, 'http://other.example': { token: 'kept' } },
        }),
      );
      const result = await login(['--email', 'ada@example.com', '--password-stdin'], PASSWORD);
      expect(result.exitCode).toBe(0);
      const sessions = await storedSessions();
      expect(sessions[server.url]).toMatchObject({ token: expect.stringMatching(/^token-/) });
      expect(sessions['http://other.example']).toMatchObject({ token: 'kept' });
    });

    it('says the server is unreachable, exit 4, after reading the password', async () => {
      const url = await closedPortUrl();
      const result = await runCli(
        ['login', '--server', url, '--email', 'ada@example.com', '--password-stdin'],
        { PLANWRIGHT_CONFIG_DIR: dir.path },
        { stdin: PASSWORD },
      );
      expect(result.exitCode).toBe(4);
      expect(result.stderr).toMatch(
        /^planwright: cannot reach the Planwright server at .* \(ECONNREFUSED\)\n/,
      );
    });

    it('reports a broken session file naming it, exit 1, before sending the password', async () => {
      await writeFile(join(dir.path, 'session.json'), '{ nope');
      const result = await login(['--email', 'ada@example.com', '--password-stdin'], PASSWORD);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toMatch(
        new RegExp(`^planwright: the session file ${join(dir.path, 'session.json')} is not valid JSON \\(`),
      );
      expect(server.seen).toEqual([]);
    });

    it('never prints the password, whatever happens', async () => {
      const secret = 'do-not-print-me-123';
      const runs = [
        await login(['--email', 'ada@example.com', '--password-stdin'], secret),
        await login(['--email', 'ada@example.com', '--password-stdin', '--json'], secret),
        await runCli(
          ['login', '--email', 'ada@example.com', '--password-stdin'],
          { ...env(), PLANWRIGHT_DEBUG: '1' },
          { stdin: secret },
        ),
      ];
      for (const result of runs) expect(result.stdout + result.stderr).not.toContain(secret);
    });
  });

  describe('with --token-stdin', () => {
    const tokenLogin = (stdin: string, args: string[] = [], extra: Record<string, string> = {}) =>
      runCli(['login', '--token-stdin', ...args], { ...env(), ...extra }, { stdin });

    it('checks the token with app/me/, keeps it as a password login keeps its session, and says so', async () => {
      const token = server.issuePersonalToken('ada@example.com');
      const result = await tokenLogin(`${token}\n`);
      expect(result).toEqual({
        exitCode: 0,
        stdout: `Signed in to ${server.url} as ada@example.com with a personal access token.\n`,
        stderr: '',
      });
      // Is this computer signed in already (nothing stored: no token sent)? Then the token is checked.
      expect(server.seen).toEqual([
        { method: 'GET', path: `${APP}/auth/session`, token: undefined, body: undefined },
        { method: 'GET', path: '/api/v1/app/me/', token, body: undefined },
      ]);
      expect(await storedSessions()).toEqual({
        [server.url]: { token, email: 'ada@example.com', name: 'Ada Lovelace', avatarUrl: null },
      });
      // And it is what later commands use: whoami says so, asking app/me/ (never auth/session).
      const whoami = await runCli(['whoami'], env());
      expect(whoami.stdout).toContain('Token:     personal access token\n');
      expect(server.seen.at(-1)).toMatchObject({ path: '/api/v1/app/me/', token });
    });

    it('works for an account made with Google, which has no password', async () => {
      const token = server.issuePersonalToken('grace@example.com');
      const result = await tokenLogin(token, ['--json']);
      expect(result).toMatchObject({ exitCode: 0, stderr: '' });
      expect(JSON.parse(result.stdout)).toMatchObject({
        email: 'grace@example.com',
        first_name: 'Grace',
        get_display_name: 'Grace Hopper',
      });
      expect((await storedSessions())[server.url]).toMatchObject({ token, email: 'grace@example.com' });
    });

    it('refuses a token the server does not take, exit 1, storing nothing', async () => {
      const token = `pwt_${'A'.repeat(43)}`;
      const result = await tokenLogin(token);
      expect(result).toEqual({
        exitCode: 1,
        stdout: '',
        stderr:
          `planwright: the server at ${server.url} refused the personal access token: it is unknown, has expired or was revoked\n` +
          'Make a new one in Profile › Security on the web (or with `planwright tokens create`), then pipe it in again.\n',
      });
      await expect(stat(join(dir.path, 'session.json'))).rejects.toThrow();
      expect(JSON.parse((await tokenLogin(token, ['--json'])).stderr).error).toMatchObject({
        code: 'login_failed',
        exitCode: 1,
      });
      expect(result.stdout + result.stderr).not.toContain(token);
    });

    it.each([
      ['nothing', '', '--token-stdin: standard input was empty; expected the token'],
      [
        'a password',
        PASSWORD,
        '--token-stdin: standard input does not hold a personal access token (one line, starting with pwt_)',
      ],
      [
        'two tokens',
        `pwt_${'a'.repeat(43)}\npwt_${'b'.repeat(43)}\n`,
        '--token-stdin: standard input does not hold a personal access token (one line, starting with pwt_)',
      ],
    ])('refuses %s on standard input (exit 2) before asking the server', async (_name, stdin, message) => {
      const result = await tokenLogin(stdin);
      expect(result.exitCode).toBe(2);
      expect(result.stderr.split('\n')[0]).toBe(`planwright: ${message}`);
      expect(server.seen).toEqual([]);
    });

    it('takes surrounding spaces and a CRLF off the token', async () => {
      const token = server.issuePersonalToken('ada@example.com');
      expect((await tokenLogin(`  ${token} \r\n`)).exitCode).toBe(0);
      expect((await storedSessions())[server.url]).toMatchObject({ token });
    });

    it('refuses a terminal on standard input, where the token would be echoed', async () => {
      const result = await runCli(['login', '--token-stdin'], env(), { tty: true });
      expect(result).toEqual({
        exitCode: 2,
        stdout: '',
        stderr:
          'planwright: --token-stdin reads a piped token, but standard input is a terminal\n' +
          'Pipe the token in, e.g. `printf %s "$TOKEN" | planwright login --token-stdin`, or set PLANWRIGHT_TOKEN instead.\n',
      });
      expect(promptForCredentials).not.toHaveBeenCalled();
    });

    it.each([[['--email', 'ada@example.com']], [['--password-stdin', '--email', 'ada@example.com']]])(
      'refuses --token-stdin with %j',
      async (args) => {
        const result = await tokenLogin(server.issuePersonalToken('ada@example.com'), args);
        expect(result).toEqual({
          exitCode: 2,
          stdout: '',
          stderr:
            'planwright: --token-stdin: goes without --email and --password-stdin (the token says whose it is)\n' +
            'Run `planwright login --help` for usage.\n',
        });
      },
    );

    it('says so when already signed in, with a password or with a token, and keeps that sign-in', async () => {
      await login(['--email', 'ada@example.com', '--password-stdin'], PASSWORD);
      const token = server.issuePersonalToken('ada@example.com');
      const again = await tokenLogin(token);
      expect(again).toMatchObject({ exitCode: 1, stdout: '' });
      expect(again.stderr).toMatch(/^planwright: already signed in to .* as ada@example.com\n/);

      await writeFile(
        join(dir.path, 'session.json'),
        JSON.stringify({ sessions: { [server.url]: { token } } }),
      );
      const seen = server.seen.length;
      const withToken = await login(['--email', 'ada@example.com', '--password-stdin'], PASSWORD);
      expect(withToken).toEqual({
        exitCode: 1,
        stdout: '',
        stderr:
          `planwright: already signed in to ${server.url} as ada@example.com with a personal access token\n` +
          'Run `planwright logout` first to sign in as someone else.\n',
      });
      // Asked with app/me/: auth/session would have answered 410 and the SDK would have forgotten the token.
      expect(server.seen.slice(seen).map((request) => request.path)).toEqual(['/api/v1/app/me/']);
      expect((await storedSessions())[server.url]).toMatchObject({ token });
    });

    it('replaces a stored personal access token that was revoked', async () => {
      const revoked = server.issuePersonalToken('ada@example.com');
      await writeFile(
        join(dir.path, 'session.json'),
        JSON.stringify({ sessions: { [server.url]: { token: revoked } } }),
      );
      server.personalTokens.delete(revoked);
      const result = await login(['--email', 'ada@example.com', '--password-stdin'], PASSWORD);
      expect(result.exitCode).toBe(0);
      expect((await storedSessions())[server.url]).toMatchObject({ token: expect.stringMatching(/^token-/) });
    });

    it('warns that PLANWRIGHT_TOKEN, while set, is what commands use', async () => {
      const token = server.issuePersonalToken('ada@example.com');
      const result = await tokenLogin(token, [], {
        PLANWRIGHT_TOKEN: server.issuePersonalToken('grace@example.com'),
      });
      expect(result).toEqual({
        exitCode: 0,
        stdout: `Signed in to ${server.url} as ada@example.com with a personal access token.\n`,
        stderr:
          'planwright: warning: PLANWRIGHT_TOKEN is set, so commands use its token rather than this sign-in until you unset it.\n',
      });
      // The file gets the token piped in, never the variable's.
      expect((await storedSessions())[server.url]).toMatchObject({ token });
    });
  });

  describe('options', () => {
    it.each([
      [['--password-stdin'], '--password-stdin: needs --email <address> too (there is nobody to ask for it)'],
      [['--email', 'ada', '--password-stdin'], '--email: "ada" is not an e-mail address'],
      [['--email', '', '--password-stdin'], '--email: "" is not an e-mail address'],
    ])('rejects %j with a usage error, exit 2, before anything else', async (args, message) => {
      const result = await login(args, PASSWORD);
      expect(result).toEqual({
        exitCode: 2,
        stdout: '',
        stderr: `planwright: ${message}\nRun \`planwright login --help\` for usage.\n`,
      });
      expect(server.seen).toEqual([]);
    });

    it('refuses to prompt when standard input is not a terminal', async () => {
      for (const stdin of [undefined, 'piped']) {
        const result = await login(['--email', 'ada@example.com'], stdin);
        expect(result).toEqual({
          exitCode: 2,
          stdout: '',
          stderr:
            'planwright: cannot ask for the password: standard input or standard error is not a terminal\n' +
            'For scripts: `planwright login --email <address> --password-stdin`, with the password piped in.\n',
        });
      }
      expect(promptForCredentials).not.toHaveBeenCalled();
      expect(server.seen).toEqual([]);
    });

    it('refuses --password-stdin on a terminal, where the password would be echoed', async () => {
      const result = await runCli(['login', '--email', 'ada@example.com', '--password-stdin'], env(), {
        tty: true,
      });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toMatch(
        /^planwright: --password-stdin reads a piped password, but standard input is a terminal\n/,
      );
    });
  });

  describe('on a terminal', () => {
    it('asks on the terminal (with the server and the --email), then signs in', async () => {
      vi.mocked(promptForCredentials).mockResolvedValue({ email: 'ada@example.com', password: PASSWORD });
      const result = await runCli(['login', '--email', 'ada@example.com'], env(), { tty: true });
      expect(result).toEqual({
        exitCode: 0,
        stdout: `Signed in to ${server.url} as Ada Lovelace <ada@example.com>.\n`,
        stderr: '',
      });
      expect(promptForCredentials).toHaveBeenCalledWith(
        expect.objectContaining({ server: server.url, email: 'ada@example.com' }),
      );
    });

    it('does not ask when already signed in', async () => {
      await login(['--email', 'ada@example.com', '--password-stdin'], PASSWORD);
      const result = await runCli(['login'], env(), { tty: true });
      expect(result.exitCode).toBe(1);
      expect(promptForCredentials).not.toHaveBeenCalled();
    });

    it('does not ask when the server cannot be reached', async () => {
      const result = await runCli(['login', '--server', await closedPortUrl()], env(), { tty: true });
      expect(result.exitCode).toBe(4);
      expect(promptForCredentials).not.toHaveBeenCalled();
    });

    it('exits 130 when the person cancels', async () => {
      const { CancelledError } = await import('../src/errors/cli-error.js');
      vi.mocked(promptForCredentials).mockRejectedValue(new CancelledError('login cancelled'));
      const result = await runCli(['login'], env(), { tty: true });
      expect(result).toEqual({ exitCode: 130, stdout: '', stderr: 'planwright: login cancelled\n' });
      expect(server.seen.map((request) => request.path)).toEqual([`${APP}/auth/session`]);
    });
  });
});
