import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeAuthServer, startFakeAuthServer } from './support/auth-server.js';
import { closedPortUrl } from './support/http-server.js';
import { runCli, useTempDir } from './support/run-cli.js';

const PASSWORD = 'a-sturdy-harbour-passphrase';

describe('planwright whoami and logout', () => {
  const dir = useTempDir();
  let server: FakeAuthServer;
  beforeEach(async () => {
    server = await startFakeAuthServer([
      { email: 'ada@example.com', password: PASSWORD, firstName: 'Ada', lastName: 'Lovelace' },
      { email: 'bob@example.com', password: PASSWORD },
    ]);
  });
  afterEach(async () => {
    await server.close();
  });

  const env = () => ({ PLANWRIGHT_CONFIG_DIR: dir.path, PLANWRIGHT_SERVER: server.url });
  const cli = (...args: string[]) => runCli(args, env());
  const sessionFile = () => join(dir.path, 'session.json');
  const storedSessions = async () =>
    (JSON.parse(await readFile(sessionFile(), 'utf8')) as { sessions: Record<string, { token: string }> })
      .sessions;
  /** Stores a session the fake server knows, as `planwright login` would have. */
  const signIn = async (email: string, serverUrl = server.url) => {
    const token = server.issueToken(email);
    await writeFile(sessionFile(), JSON.stringify({ sessions: { [serverUrl]: { token, email } } }));
    return token;
  };

  describe('whoami', () => {
    it('prints the e-mail, name and verification for people', async () => {
      const token = await signIn('ada@example.com');
      expect(await cli('whoami')).toEqual({
        exitCode: 0,
        stderr: '',
        stdout: [
          `Server:    ${server.url}`,
          'E-mail:    ada@example.com',
          'Name:      Ada Lovelace',
          'Verified:  yes',
          '',
        ].join('\n'),
      });
      expect(server.seen).toEqual([{ method: 'GET', path: '/api/v1/app/me/', token, body: undefined }]);
    });

    it('prints a name holding escape sequences without them', async () => {
      await server.close();
      server = await startFakeAuthServer([
        {
          email: 'eve@example.com',
          password: PASSWORD,
          firstName: 'Eve\u001b[2J\u001b]0;pwned\u0007',
          lastName: 'Ö\u202e',
        },
      ]);
      await signIn('eve@example.com');
      const result = await cli('whoami');
      expect(result.stdout).toContain('Name:      Eve Ö\n');
      expect(result.stdout).not.toContain('\u001b');
    });

    it('says when no name is set', async () => {
      await signIn('bob@example.com');
      expect((await cli('whoami')).stdout).toContain('Name:      (not set)\n');
    });

    it('prints the user record with --json, and refreshes the stored name', async () => {
      await signIn('ada@example.com');
      const result = await cli('whoami', '--json');
      expect(result.exitCode).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({
        id: expect.any(String),
        email: 'ada@example.com',
        first_name: 'Ada',
        last_name: 'Lovelace',
        language: null,
        timezone: null,
        avatar_url: null,
        get_display_name: 'Ada Lovelace',
        has_verified_email: true,
      });
      expect((await storedSessions())[server.url]).toMatchObject({ name: 'Ada Lovelace' });
    });

    it('says "not signed in" with exit 3 and asks nothing of the server when no token is stored', async () => {
      expect(await cli('whoami')).toEqual({
        exitCode: 3,
        stdout: '',
        stderr: `planwright: not signed in to ${server.url}\nRun \`planwright login\` to sign in.\n`,
      });
      expect(server.seen).toEqual([]);
      const json = await cli('whoami', '--json');
      expect(JSON.parse(json.stderr)).toEqual({
        error: {
          code: 'not_signed_in',
          message: `not signed in to ${server.url}`,
          suggestion: 'Run `planwright login` to sign in.',
          exitCode: 3,
        },
      });
    });

    it('only counts the session of the server asked about', async () => {
      await signIn('ada@example.com', 'http://elsewhere.example');
      expect((await cli('whoami')).exitCode).toBe(3);
    });

    it('removes an expired token and says so, exit 3', async () => {
      const token = await signIn('ada@example.com');
      await writeFile(
        sessionFile(),
        JSON.stringify({ sessions: { [server.url]: { token }, 'http://other.example': { token: 'kept' } } }),
      );
      server.sessions.delete(token);
      expect(await cli('whoami')).toEqual({
        exitCode: 3,
        stdout: '',
        stderr:
          `planwright: not signed in to ${server.url}: the session has expired or was ended, so its token was removed from this computer\n` +
          'Run `planwright login` to sign in again.\n',
      });
      expect(await storedSessions()).toEqual({
        'http://other.example': expect.objectContaining({ token: 'kept' }),
      });
      expect((await cli('whoami')).stderr).toBe(
        `planwright: not signed in to ${server.url}\nRun \`planwright login\` to sign in.\n`,
      );
    });

    it('reports an unreachable server with exit 4 and keeps the token', async () => {
      const url = await closedPortUrl();
      await signIn('ada@example.com', url);
      const result = await runCli(['whoami', '--server', url], { PLANWRIGHT_CONFIG_DIR: dir.path });
      expect(result.exitCode).toBe(4);
      expect(Object.keys(await storedSessions())).toEqual([url]);
    });

    it('reports a corrupt session file in one line naming it, exit 1', async () => {
      await writeFile(sessionFile(), JSON.stringify({ sessions: { [server.url]: { token: 42 } } }));
      expect(await cli('whoami')).toEqual({
        exitCode: 1,
        stdout: '',
        stderr:
          `planwright: the session file ${sessionFile()} is invalid: sessions.${server.url}.token: Invalid input: expected string, received number\n` +
          'Delete it and sign in again with `planwright login`: it only holds session tokens.\n',
      });
    });
  });

  describe('logout', () => {
    it('ends the session on the server and removes the token', async () => {
      const token = await signIn('ada@example.com');
      expect(await cli('logout')).toEqual({
        exitCode: 0,
        stdout: `Signed out of ${server.url} (ada@example.com).\n`,
        stderr: '',
      });
      expect(server.seen).toEqual([
        { method: 'DELETE', path: '/_allauth/app/v1/auth/session', token, body: undefined },
      ]);
      expect(server.sessions.has(token)).toBe(false);
      expect(await storedSessions()).toEqual({});
      expect((await cli('whoami')).exitCode).toBe(3);
    });

    it('reports what it did with --json', async () => {
      await signIn('ada@example.com');
      const result = await cli('logout', '--json');
      expect(JSON.parse(result.stdout)).toEqual({
        server: server.url,
        result: 'signed_out',
        email: 'ada@example.com',
      });
    });

    it('keeps the sessions of other servers', async () => {
      const token = server.issueToken('ada@example.com');
      await writeFile(
        sessionFile(),
        JSON.stringify({ sessions: { [server.url]: { token }, 'http://other.example': { token: 'kept' } } }),
      );
      await cli('logout');
      expect(Object.keys(await storedSessions())).toEqual(['http://other.example']);
    });

    it('has nothing to do when not signed in, exit 0', async () => {
      expect(await cli('logout')).toEqual({
        exitCode: 0,
        stdout: `Not signed in to ${server.url}: nothing to do.\n`,
        stderr: '',
      });
      expect(JSON.parse((await cli('logout', '--json')).stdout)).toEqual({
        server: server.url,
        result: 'not_signed_in',
        email: null,
      });
      expect(server.seen).toEqual([]);
    });

    it('removes the token even when the server cannot be reached, and warns that the session may live on', async () => {
      const url = await closedPortUrl();
      await signIn('ada@example.com', url);
      const result = await runCli(['logout', '--server', url], { PLANWRIGHT_CONFIG_DIR: dir.path });
      expect(result).toEqual({
        exitCode: 0,
        stdout: `Signed out of ${url} on this computer.\n`,
        stderr:
          `planwright: warning: cannot reach the Planwright server at ${url} (ECONNREFUSED). ` +
          'The token was removed from this computer, but the session may stay valid on the server until it expires.\n',
      });
      expect(await storedSessions()).toEqual({});
    });

    it('puts the warning in the JSON report with --json, not on stderr', async () => {
      const url = await closedPortUrl();
      await signIn('ada@example.com', url);
      const result = await runCli(['logout', '--server', url, '--json'], { PLANWRIGHT_CONFIG_DIR: dir.path });
      expect(result.stderr).toBe('');
      expect(JSON.parse(result.stdout)).toEqual({
        server: url,
        result: 'signed_out_locally',
        email: 'ada@example.com',
        warning: expect.stringContaining('may stay valid on the server until it expires'),
      });
    });

    it('warns when the server refuses to end the session (429)', async () => {
      await signIn('ada@example.com');
      server.canned.set('DELETE /_allauth/app/v1/auth/session', { status: 429, body: { status: 429 } });
      const result = await cli('logout');
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toMatch(
        /^planwright: warning: the server refused: too many requests\. The token was removed/,
      );
      expect(await storedSessions()).toEqual({});
    });

    it('treats a server error as a warning too', async () => {
      await signIn('ada@example.com');
      server.canned.set('DELETE /_allauth/app/v1/auth/session', { status: 500, body: { detail: 'Boom.' } });
      const result = await cli('logout');
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toMatch(
        /^planwright: warning: the server answered 500 Internal Server Error: Boom\. The token/,
      );
    });
  });

  describe('with a personal access token', () => {
    /** Stores a personal access token, as `planwright login --token-stdin` would have. */
    const storeToken = async (email: string) => {
      const token = server.issuePersonalToken(email);
      await writeFile(sessionFile(), JSON.stringify({ sessions: { [server.url]: { token, email } } }));
      return token;
    };
    const withEnv = (token: string) => ({ ...env(), PLANWRIGHT_TOKEN: token });

    it('whoami asks app/me/ with a stored token and says it is one', async () => {
      const token = await storeToken('ada@example.com');
      const result = await cli('whoami');
      expect(result).toEqual({
        exitCode: 0,
        stderr: '',
        stdout: [
          `Server:    ${server.url}`,
          'E-mail:    ada@example.com',
          'Name:      Ada Lovelace',
          'Verified:  yes',
          'Token:     personal access token',
          '',
        ].join('\n'),
      });
      expect(server.seen).toEqual([{ method: 'GET', path: '/api/v1/app/me/', token, body: undefined }]);
    });

    it('whoami uses PLANWRIGHT_TOKEN instead of the stored session, and writes nothing', async () => {
      await signIn('ada@example.com');
      const before = await readFile(sessionFile(), 'utf8');
      const token = server.issuePersonalToken('bob@example.com');
      const result = await runCli(['whoami'], withEnv(token));
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toContain('E-mail:    bob@example.com\n');
      expect(result.stdout).toContain('Token:     personal access token, from PLANWRIGHT_TOKEN\n');
      expect(server.seen).toEqual([{ method: 'GET', path: '/api/v1/app/me/', token, body: undefined }]);
      expect(await readFile(sessionFile(), 'utf8')).toBe(before);
      expect(JSON.parse((await runCli(['whoami', '--json'], withEnv(token))).stdout)).toMatchObject({
        email: 'bob@example.com',
      });
    });

    it('an empty PLANWRIGHT_TOKEN counts as unset', async () => {
      expect((await runCli(['whoami'], { ...env(), PLANWRIGHT_TOKEN: '  ' })).exitCode).toBe(3);
    });

    it('a refused PLANWRIGHT_TOKEN says so (exit 3) and leaves the stored session alone', async () => {
      await signIn('ada@example.com');
      const before = await readFile(sessionFile(), 'utf8');
      const result = await runCli(['whoami'], withEnv(`pwt_${'Z'.repeat(43)}`));
      expect(result).toEqual({
        exitCode: 3,
        stdout: '',
        stderr:
          `planwright: not signed in to ${server.url}: the server refused the token in PLANWRIGHT_TOKEN (it has expired or was revoked)\n` +
          'Make a new one with `planwright tokens create` (or in Profile › Security on the web), or unset PLANWRIGHT_TOKEN to use the sign-in of `planwright login`.\n',
      });
      expect(await readFile(sessionFile(), 'utf8')).toBe(before);
    });

    it('a stored token that was revoked is removed, and whoami says how to sign in again', async () => {
      const token = await storeToken('ada@example.com');
      server.personalTokens.delete(token);
      expect(await cli('whoami')).toEqual({
        exitCode: 3,
        stdout: '',
        stderr:
          `planwright: not signed in to ${server.url}: the personal access token has expired or was revoked, so it was removed from this computer\n` +
          'Make a new one and pipe it to `planwright login --token-stdin`, or run `planwright login` to sign in with your password.\n',
      });
      expect(await storedSessions()).toEqual({});
    });

    it('logout only forgets a stored token here, and says it keeps working until revoked', async () => {
      const token = await storeToken('ada@example.com');
      const result = await cli('logout');
      expect(result).toEqual({
        exitCode: 0,
        stdout: `Removed the personal access token for ${server.url} (ada@example.com) from this computer.\n`,
        stderr:
          'planwright: warning: the personal access token keeps working until it is revoked or expires: revoke it with `planwright tokens revoke <id>` (signed in with your password; `planwright tokens list` shows the ids) or in Profile › Security on the web.\n',
      });
      // Nothing asked of the server: DELETE auth/session does not know a personal access token.
      expect(server.seen).toEqual([]);
      expect(server.personalTokens.has(token)).toBe(true);
      expect(await storedSessions()).toEqual({});
    });

    it('logout --json reports a forgotten token as signed out locally, with the warning', async () => {
      await storeToken('ada@example.com');
      const result = await cli('logout', '--json');
      expect(result.stderr).toBe('');
      expect(JSON.parse(result.stdout)).toEqual({
        server: server.url,
        result: 'signed_out_locally',
        email: 'ada@example.com',
        warning: expect.stringContaining('keeps working until it is revoked'),
      });
    });

    it('logout with PLANWRIGHT_TOKEN set signs the stored session out and says to unset the variable', async () => {
      const session = await signIn('ada@example.com');
      const result = await runCli(['logout'], withEnv(server.issuePersonalToken('ada@example.com')));
      expect(result).toEqual({
        exitCode: 0,
        stdout: `Signed out of ${server.url} (ada@example.com).\n`,
        stderr:
          'planwright: warning: PLANWRIGHT_TOKEN is set, so commands keep using its token: unset it (`unset PLANWRIGHT_TOKEN`). It keeps working until it is revoked (`planwright tokens revoke <id>`) or expires.\n',
      });
      expect(server.sessions.has(session)).toBe(false);
      expect(await storedSessions()).toEqual({});
    });

    it('logout with only PLANWRIGHT_TOKEN set has nothing to sign out, and says to unset it', async () => {
      const result = await runCli(
        ['logout', '--json'],
        withEnv(server.issuePersonalToken('ada@example.com')),
      );
      expect(result.exitCode).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({
        server: server.url,
        result: 'not_signed_in',
        email: null,
        warning: expect.stringContaining('PLANWRIGHT_TOKEN is set, so commands keep using its token'),
      });
      expect(server.seen).toEqual([]);
    });
  });
});
