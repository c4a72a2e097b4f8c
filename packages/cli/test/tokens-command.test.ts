import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type PersonalToken, TOKEN_LIFETIME_DAYS } from '@planwright/sdk';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOKEN_DAYS } from '../src/commands/tokens.js';
import { promptForCredentials } from '../src/login/login-prompt.js';
import { createdTokenNote, tokenListLines } from '../src/workspace/token-views.js';
import { FAKE_NOW_SECONDS, type FakeAuthServer, startFakeAuthServer } from './support/auth-server.js';
import { runCli, useTempDir } from './support/run-cli.js';

// The Ink prompt itself is tested in login-prompt.test.tsx; here it stands in for a person typing.
vi.mock('../src/login/login-prompt.js', () => ({ promptForCredentials: vi.fn() }));

const PASSWORD = 'a-sturdy-harbour-passphrase';
const APP = '/_allauth/app/v1';
const TOKEN_SHAPE = /^pwt_[A-Za-z0-9_-]{43}$/;

describe('planwright tokens', () => {
  const dir = useTempDir();
  let server: FakeAuthServer;
  beforeEach(async () => {
    server = await startFakeAuthServer([
      { email: 'ada@example.com', password: PASSWORD, firstName: 'Ada', lastName: 'Lovelace' },
      { email: 'grace@example.com', password: null, firstName: 'Grace' },
    ]);
  });
  afterEach(async () => {
    await server.close();
    vi.mocked(promptForCredentials).mockReset();
  });

  const env = (extra: Record<string, string> = {}) => ({
    PLANWRIGHT_CONFIG_DIR: dir.path,
    PLANWRIGHT_SERVER: server.url,
    ...extra,
  });
  const cli = (args: string[], extra?: Record<string, string>, tty = false) =>
    runCli(['tokens', ...args], env(extra), { tty });
  const sessionFile = () => join(dir.path, 'session.json');
  /** Stores a session (or a personal access token) as `planwright login` would have. */
  const store = async (token: string, email = 'ada@example.com') =>
    writeFile(sessionFile(), JSON.stringify({ sessions: { [server.url]: { token, email } } }));
  const signIn = async (email = 'ada@example.com') => {
    const token = server.issueToken(email);
    await store(token, email);
    return token;
  };
  const paths = () => server.seen.map((request) => `${request.method} ${request.path}`);

  describe('create', () => {
    it('prints the token alone on stdout, and what it can do until when on stderr', async () => {
      const session = await signIn();
      const result = await cli(['create', '--name', 'nightly']);
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toMatch(/^pwt_[A-Za-z0-9_-]{43}\n$/);
      const token = result.stdout.trim();
      const made = server.personalTokens.get(token);
      expect(made).toMatchObject({ name: 'nightly', scope: 'write', email: 'ada@example.com' });
      expect(result.stderr).toBe(
        `Read-write token “nightly”: it can read and change all your account can, until 2027-02-27 10:00 UTC. It is shown only now: keep it.\n`,
      );
      // The server's default lifetime, unless asked; the token is made by the stored sign-in.
      expect(server.seen).toEqual([
        {
          method: 'POST',
          path: `${APP}/account/tokens`,
          token: session,
          body: { name: 'nightly', scope: 'write' },
        },
      ]);
    });

    it('prints {token, ...its settings} with --json and nothing on stderr; --read-only and --expires are sent', async () => {
      await signIn();
      const result = await cli([
        'create',
        '--name',
        ' dashboard ',
        '--read-only',
        '--expires',
        '30',
        '--json',
      ]);
      expect(result).toMatchObject({ exitCode: 0, stderr: '' });
      const printed = JSON.parse(result.stdout) as PersonalToken & { token: string };
      expect(printed).toEqual({
        token: expect.stringMatching(TOKEN_SHAPE),
        id: expect.any(Number),
        name: 'dashboard',
        scope: 'read',
        token_hint: printed.token.slice(0, 8),
        created_at: expect.any(Number),
        expires_at: printed.created_at + 30 * 86_400,
        last_used_at: null,
      });
      expect(Object.keys(printed)[0]).toBe('token');
      expect(server.seen[0]?.body).toEqual({ name: 'dashboard', expires_in_days: 30, scope: 'read' });
    });

    it('says what a read-only token can do', async () => {
      await signIn();
      const result = await cli(['create', '--name', 'reader', '--read-only', '--expires', '7d']);
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toMatch(
        /^Read-only token “reader”: it can read all your account can, and change nothing, until \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\. It is shown only now: keep it\.\n$/,
      );
      expect(server.seen[0]?.body).toEqual({ name: 'reader', expires_in_days: 7, scope: 'read' });
    });

    it.each([
      [['--expires', '0'], '--expires: a token lasts at least 1 day'],
      [['--expires', '366'], '--expires: a token lasts at most 365 days'],
      [['--expires', '1.5'], '--expires: must be a whole number of days, 1 to 365'],
      [['--expires', 'soon'], '--expires: must be a whole number of days, 1 to 365'],
      [['--expires', '-3'], '--expires: must be a whole number of days, 1 to 365'],
    ])('refuses %j as a usage error before asking the server', async (args, message) => {
      await signIn();
      const result = await cli(['create', '--name', 'nightly', ...args]);
      expect(result).toEqual({
        exitCode: 2,
        stdout: '',
        stderr: `planwright: ${message}\nRun \`planwright tokens create --help\` for usage.\n`,
      });
      expect(server.seen).toEqual([]);
    });

    it('checks the name by the SDK rule, and needs one', async () => {
      await signIn();
      const blank = await cli(['create', '--name', '  ']);
      expect(blank).toMatchObject({ exitCode: 2, stdout: '' });
      expect(blank.stderr).toMatch(/^planwright: --name: Name cannot be empty\n/);
      const long = await cli(['create', '--name', 'x'.repeat(101)]);
      expect(long.stderr).toMatch(/^planwright: --name: Name must be at most 100 characters\n/);
      const missing = await cli(['create']);
      expect(missing).toMatchObject({ exitCode: 2 });
      expect(missing.stderr).toMatch(/required option '--name <name>' not specified/);
      expect(server.seen).toEqual([]);
    });

    it('says the lifetime in --help as the SDK has it', async () => {
      expect(TOKEN_DAYS).toEqual(TOKEN_LIFETIME_DAYS);
      const help = await cli(['create', '--help']);
      expect(help.exitCode).toBe(0);
      expect(help.stdout.replace(/\s+/g, ' ')).toContain(
        `a whole number from 1 to ${TOKEN_LIFETIME_DAYS.max} (default ${TOKEN_LIFETIME_DAYS.default})`,
      );
    });

    describe('after a sign-in older than 5 minutes', () => {
      it('confirms the password from PLANWRIGHT_PASSWORD off a terminal, then makes the token', async () => {
        const session = await signIn();
        server.stale.add(session);
        const result = await cli(['create', '--name', 'nightly'], { PLANWRIGHT_PASSWORD: PASSWORD });
        expect(result.exitCode).toBe(0);
        expect(result.stdout.trim()).toMatch(TOKEN_SHAPE);
        expect(paths()).toEqual([
          `POST ${APP}/account/tokens`,
          `POST ${APP}/auth/reauthenticate`,
          `POST ${APP}/account/tokens`,
        ]);
        expect(server.seen[1]?.body).toEqual({ password: PASSWORD });
        expect(result.stdout + result.stderr).not.toContain(PASSWORD);
      });

      it('without a terminal or PLANWRIGHT_PASSWORD, says how to get a recent sign-in (exit 2)', async () => {
        server.stale.add(await signIn());
        const result = await cli(['create', '--name', 'nightly']);
        expect(result).toEqual({
          exitCode: 2,
          stdout: '',
          stderr:
            'planwright: Making a token needs a sign-in in the last 5 minutes: run `planwright login` again, or set PLANWRIGHT_PASSWORD.\n' +
            'To sign in again: `planwright logout`, then `planwright login`. On a terminal, planwright asks for the password instead.\n',
        });
        expect(paths()).toEqual([`POST ${APP}/account/tokens`]);
      });

      it('refuses a wrong PLANWRIGHT_PASSWORD with the server message, exit 1, and makes nothing', async () => {
        server.stale.add(await signIn());
        const result = await cli(['create', '--name', 'nightly', '--json'], {
          PLANWRIGHT_PASSWORD: 'not-it',
        });
        expect(result.exitCode).toBe(1);
        expect(result.stdout).toBe('');
        expect(JSON.parse(result.stderr).error).toEqual({
          code: 'login_failed',
          message: 'Incorrect password.',
          suggestion: 'Check PLANWRIGHT_PASSWORD: it must be the password of ada@example.com.',
          exitCode: 1,
        });
        expect(server.personalTokens.size).toBe(0);
      });

      it('asks for the password on a terminal (never shown), then retries once', async () => {
        server.stale.add(await signIn());
        vi.mocked(promptForCredentials).mockResolvedValue({ email: 'ada@example.com', password: PASSWORD });
        const result = await cli(['create', '--name', 'nightly'], {}, true);
        expect(result.exitCode).toBe(0);
        expect(result.stdout.trim()).toMatch(TOKEN_SHAPE);
        expect(promptForCredentials).toHaveBeenCalledWith(
          expect.objectContaining({
            server: server.url,
            email: 'ada@example.com',
            action: 'Confirm your password to make a token on',
          }),
        );
        expect(result.stdout + result.stderr).not.toContain(PASSWORD);
        expect(paths().filter((path) => path.endsWith('/account/tokens'))).toHaveLength(2);
      });

      it('prefers the terminal to PLANWRIGHT_PASSWORD there', async () => {
        server.stale.add(await signIn());
        vi.mocked(promptForCredentials).mockResolvedValue({ email: 'ada@example.com', password: PASSWORD });
        const result = await cli(['create', '--name', 'nightly'], { PLANWRIGHT_PASSWORD: 'not-it' }, true);
        expect(result.exitCode).toBe(0);
        expect(server.seen[1]?.body).toEqual({ password: PASSWORD });
      });

      it('exits 130 when the person cancels the prompt', async () => {
        server.stale.add(await signIn());
        const { CancelledError } = await import('../src/errors/cli-error.js');
        vi.mocked(promptForCredentials).mockRejectedValue(new CancelledError('login cancelled'));
        const result = await cli(['create', '--name', 'nightly'], {}, true);
        expect(result).toMatchObject({ exitCode: 130, stdout: '' });
        expect(server.personalTokens.size).toBe(0);
      });
    });

    it('for an account without a password (made with Google), says to make the token on the web', async () => {
      server.stale.add(await signIn('grace@example.com'));
      const result = await cli(['create', '--name', 'nightly'], { PLANWRIGHT_PASSWORD: PASSWORD });
      expect(result).toEqual({
        exitCode: 1,
        stdout: '',
        stderr:
          'planwright: making a token needs a sign-in in the last 5 minutes, and this account has no password to confirm it with\n' +
          'Make the token in Profile › Security on the web after signing in there.\n',
      });
      expect(paths()).toEqual([`POST ${APP}/account/tokens`]);
    });

    it("says the server's refusal of the settings, field by field (exit 2)", async () => {
      await signIn();
      server.canned.set(`POST ${APP}/account/tokens`, {
        status: 400,
        body: { status: 400, errors: [{ message: 'Names must be unique.', code: 'invalid', param: 'name' }] },
      });
      expect(await cli(['create', '--name', 'nightly'])).toEqual({
        exitCode: 2,
        stdout: '',
        stderr:
          "planwright: the server refused the token's settings: name: Names must be unique.\n" +
          'Run `planwright tokens create --help` for usage.\n',
      });
    });

    it('refuses when signed in with a personal access token, asking the server nothing', async () => {
      const token = server.issuePersonalToken('ada@example.com');
      await store(token);
      const result = await cli(['create', '--name', 'nightly']);
      expect(result).toEqual({
        exitCode: 1,
        stdout: '',
        stderr:
          'planwright: Sign in with `planwright login` (a password or e-mail sign-in) to make tokens; a personal access token cannot make others.\n' +
          'This computer is signed in with one: run `planwright logout`, then `planwright login` with your password, or use Profile › Security on the web.\n',
      });
      expect(server.seen).toEqual([]);
      // And the stored token is kept: the allauth endpoints would have answered 410 for it.
      expect(await readFile(sessionFile(), 'utf8')).toContain(token);
    });

    it('refuses with PLANWRIGHT_TOKEN set, saying to unset it', async () => {
      await signIn();
      const token = server.issuePersonalToken('ada@example.com');
      const result = await cli(['create', '--name', 'nightly', '--json'], { PLANWRIGHT_TOKEN: token });
      expect(JSON.parse(result.stderr).error).toEqual({
        code: 'personal_token_not_allowed',
        message:
          'Sign in with `planwright login` (a password or e-mail sign-in) to make tokens; a personal access token cannot make others.',
        suggestion:
          'PLANWRIGHT_TOKEN is set: unset it to use the sign-in of `planwright login`, or use Profile › Security on the web.',
        exitCode: 1,
      });
      expect(server.seen).toEqual([]);
    });

    it('says "not signed in" (exit 3) with no session', async () => {
      const result = await cli(['create', '--name', 'nightly']);
      expect(result.exitCode).toBe(3);
      expect(server.seen).toEqual([]);
    });

    it('removes a session the server no longer knows (410), exit 3', async () => {
      await store('token-long-gone');
      const result = await cli(['create', '--name', 'nightly']);
      expect(result).toMatchObject({ exitCode: 3, stdout: '' });
      expect(result.stderr).toContain('its token was removed from this computer');
      expect(JSON.parse(await readFile(sessionFile(), 'utf8'))).toEqual({ sessions: {} });
    });
  });

  describe('list', () => {
    it('shows a table of the tokens, newest first, with their scope, times and last use', async () => {
      await signIn();
      const nightly = server.issuePersonalToken('ada@example.com', { name: 'nightly' });
      server.issuePersonalToken('ada@example.com', { name: 'dashboard', scope: 'read' });
      server.issuePersonalToken('grace@example.com', { name: 'not hers' });
      await runCli(['whoami'], env({ PLANWRIGHT_TOKEN: nightly }));
      const result = await cli(['list']);
      expect(result).toMatchObject({ exitCode: 0, stderr: '' });
      const lines = result.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^ID {2}NAME {7}SCOPE {7}CREATED {15}EXPIRES {15}LAST USED$/);
      expect(lines[1]).toMatch(
        /^2 {3}dashboard {2}read-only {3}2026-11-29 10:00 UTC {2}2027-02-27 10:00 UTC {2}never$/,
      );
      expect(lines[2]).toMatch(/^1 {3}nightly {4}read-write .* 2026-11-29 11:00 UTC$/);
      expect(lines).toHaveLength(3);
    });

    it('prints the SDK objects with --json', async () => {
      await signIn();
      server.issuePersonalToken('ada@example.com', { name: 'nightly' });
      const result = await cli(['list', '--json']);
      expect(JSON.parse(result.stdout)).toEqual([
        {
          id: 1,
          name: 'nightly',
          scope: 'write',
          token_hint: expect.stringMatching(/^pwt_/),
          created_at: FAKE_NOW_SECONDS + 1,
          expires_at: FAKE_NOW_SECONDS + 1 + 90 * 86_400,
          last_used_at: null,
        },
      ]);
      expect(result.stdout).not.toContain([...server.personalTokens.keys()][0]);
    });

    it('says how to make one when there is none', async () => {
      await signIn();
      expect(await cli(['list'])).toEqual({
        exitCode: 0,
        stderr: '',
        stdout:
          'No personal access tokens yet.\n' +
          'Make one for a script with `planwright tokens create --name <name>`: it signs the script in as you until it expires or you revoke it.\n',
      });
      expect(JSON.parse((await cli(['list', '--json'])).stdout)).toEqual([]);
    });

    it('refuses a personal access token, which the allauth endpoints do not take', async () => {
      await store(server.issuePersonalToken('ada@example.com'));
      const result = await cli(['list']);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toMatch(
        /^planwright: Sign in with `planwright login` \(a password or e-mail sign-in\) to list tokens; a personal access token cannot list them\.\n/,
      );
      expect(server.seen).toEqual([]);
    });
  });

  describe('revoke', () => {
    it('revokes a token: it stops working at once', async () => {
      await signIn();
      const token = server.issuePersonalToken('ada@example.com', { name: 'nightly' });
      expect((await runCli(['whoami'], env({ PLANWRIGHT_TOKEN: token }))).exitCode).toBe(0);
      expect(await cli(['revoke', '1'])).toEqual({
        exitCode: 0,
        stdout: 'Revoked the token 1: it stops working at once.\n',
        stderr: '',
      });
      expect(paths().at(-1)).toBe(`DELETE ${APP}/account/tokens/1`);
      const after = await runCli(['whoami'], env({ PLANWRIGHT_TOKEN: token }));
      expect(after.exitCode).toBe(3);
      expect(after.stderr).toContain('the server refused the token in PLANWRIGHT_TOKEN');
    });

    it('prints {id, revoked} with --json', async () => {
      await signIn();
      server.issuePersonalToken('ada@example.com');
      expect(JSON.parse((await cli(['revoke', ' 1 ', '--json'])).stdout)).toEqual({ id: 1, revoked: true });
    });

    it("says an unknown (or someone else's) id is not found, suggesting the list", async () => {
      await signIn();
      server.issuePersonalToken('grace@example.com');
      expect(await cli(['revoke', '1'])).toEqual({
        exitCode: 1,
        stdout: '',
        stderr:
          'planwright: Token not found: 1.\nRun `planwright tokens list` to see your tokens and their ids.\n',
      });
      expect(JSON.parse((await cli(['revoke', '99', '--json'])).stderr).error).toMatchObject({
        code: 'not_found',
        exitCode: 1,
      });
      expect(server.personalTokens.size).toBe(1);
    });

    it.each(['abc', '0', '1.5'])('refuses the id %j as a usage error', async (id) => {
      await signIn();
      const result = await cli(['revoke', id]);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toMatch(/^planwright: <id>: must be/);
      expect(server.seen).toEqual([]);
    });
  });

  describe('PLANWRIGHT_TOKEN on other commands', () => {
    it("is used instead of the stored session, and the server's read-only refusal is said as it is", async () => {
      await signIn();
      const reader = server.issuePersonalToken('ada@example.com', { scope: 'read' });
      server.canned.set('POST /api/v1/documents/', {
        status: 404,
        body: {
          detail: 'This personal access token is read-only: make a read-write token to change anything.',
          code: 'not_permitted',
        },
      });
      const result = await runCli(
        ['documents', 'create', '--title', 'Nope'],
        env({ PLANWRIGHT_TOKEN: reader }),
      );
      expect(result).toEqual({
        exitCode: 1,
        stdout: '',
        stderr:
          'planwright: This personal access token is read-only: make a read-write token to change anything.\n',
      });
      expect(server.seen.at(-1)).toMatchObject({ path: '/api/v1/documents/', token: reader });
    });

    it('is never written to the session file', async () => {
      const token = server.issuePersonalToken('ada@example.com');
      expect((await runCli(['whoami'], env({ PLANWRIGHT_TOKEN: token }))).exitCode).toBe(0);
      await expect(stat(sessionFile())).rejects.toThrow();
    });
  });
});

describe('token views', () => {
  const token = (extra: Partial<PersonalToken>): PersonalToken => ({
    id: 7,
    name: 'nightly',
    scope: 'write',
    token_hint: 'pwt_abcd',
    created_at: Date.UTC(2026, 10, 1, 9, 30) / 1000,
    expires_at: Date.UTC(2027, 0, 30, 9, 30) / 1000,
    last_used_at: null,
    ...extra,
  });

  it('lays the list out with scopes in words, "never" and expired ones marked', () => {
    const now = new Date(Date.UTC(2026, 11, 1));
    expect(
      tokenListLines(
        [
          token({
            id: 12,
            name: 'dashboard\u001b[2J',
            scope: 'read',
            last_used_at: Date.UTC(2026, 10, 30) / 1000,
          }),
          token({ id: 7, name: '  ', expires_at: Date.UTC(2026, 10, 15) / 1000 }),
          token({ id: 3, expires_at: null }),
        ],
        now,
      ),
    ).toEqual([
      'ID  NAME       SCOPE       CREATED               EXPIRES                         LAST USED',
      '12  dashboard  read-only   2026-11-01 09:30 UTC  2027-01-30 09:30 UTC            2026-11-30 00:00 UTC',
      '7   -          read-write  2026-11-01 09:30 UTC  2026-11-15 00:00 UTC (expired)  never',
      '3   nightly    read-write  2026-11-01 09:30 UTC  never                           never',
    ]);
  });

  it('says what a new token can do, until when, and that it is shown once', () => {
    expect(createdTokenNote(token({}))).toBe(
      'Read-write token “nightly”: it can read and change all your account can, until 2027-01-30 09:30 UTC. It is shown only now: keep it.',
    );
    expect(createdTokenNote(token({ scope: 'read', expires_at: null }))).toBe(
      'Read-only token “nightly”: it can read all your account can, and change nothing, until you revoke it. It is shown only now: keep it.',
    );
  });
});
