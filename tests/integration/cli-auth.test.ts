import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastKeyFor, readOutbox } from '@planwright/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLI_BIN, ensureCliBuilt } from '../support/cli-binary.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * `planwright login`, `whoami` and `logout` as a script runs them: the built bin (what `npm install`
 * gives) as a child process with pipes, not a terminal, against the real server over real HTTP.
 */
const bin = CLI_BIN;
const PASSWORD = 'a-sturdy-harbour-passphrase';

let server: TestServer;
let scratch: string;
let configDir: string;

beforeAll(async () => {
  ensureCliBuilt();
  server = await startTestServer();
  scratch = mkdtempSync(join(tmpdir(), 'planwright-cli-auth-'));
});

afterAll(async () => {
  await server?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

let counter = 0;
beforeEach(() => {
  // A fresh config directory per test: nobody is signed in.
  configDir = join(scratch, `config-${++counter}`);
});

interface Exit {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built bin with stdin, stdout and stderr as pipes, and `input` written to stdin. */
function planwright(args: string[], input = ''): Promise<Exit> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [bin, ...args],
      {
        cwd: scratch,
        // A clean environment: no PLANWRIGHT_* or NODE_OPTIONS of the test runner leak in.
        env: {
          PATH: process.env.PATH ?? '',
          HOME: scratch,
          PLANWRIGHT_CONFIG_DIR: configDir,
          PLANWRIGHT_SERVER: server.url,
        },
      },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
      },
    );
    child.stdin?.end(input);
  });
}

const allauth = (path: string, init: { method: string; body?: unknown; token?: string }) =>
  fetch(`${server.url}/_allauth/app/v1/${path}`, {
    method: init.method,
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { 'x-session-token': init.token } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });

/** Signs up through the real API and, unless told not to, opens the e-mailed verification link. */
async function createAccount(email: string, options: { verified: boolean } = { verified: true }) {
  const signup = await allauth('auth/signup', {
    method: 'POST',
    body: { email, password: PASSWORD, terms_agreement: true, phone_number_x: '' },
  });
  expect(signup.status).toBe(401); // pending verification, as allauth answers a sign-up
  if (!options.verified) return;
  // The link's key, from the .eml the server wrote to its outbox (parsed with postal-mime).
  const key = await lastKeyFor(server.outboxDir, email, '/account/verify-email/');
  const verified = await allauth('auth/email/verify', { method: 'POST', body: { key } });
  expect(verified.status).toBe(401); // verified, not signed in: this request carried no session
}

const sessionFile = () => join(configDir, 'session.json');
const storedToken = async (): Promise<string | undefined> => {
  const file = JSON.parse(await readFile(sessionFile(), 'utf8')) as {
    sessions: Record<string, { token: string }>;
  };
  return file.sessions[server.url]?.token;
};

describe('planwright accounts against the real server, without a terminal', () => {
  it('logs in with a piped password, shows who is signed in, logs out, and is then signed out', async () => {
    const email = 'cli-flow@example.com';
    await createAccount(email);

    const login = await planwright(['login', '--email', email, '--password-stdin'], `${PASSWORD}\n`);
    expect(login).toEqual({ code: 0, stdout: `Signed in to ${server.url} as ${email}.\n`, stderr: '' });
    if (process.platform !== 'win32') expect((await stat(sessionFile())).mode & 0o777).toBe(0o600);
    const token = await storedToken();
    expect(token).toMatch(/.{20,}/);

    const whoami = await planwright(['whoami']);
    expect(whoami).toEqual({
      code: 0,
      stderr: '',
      stdout: [
        `Server:    ${server.url}`,
        `E-mail:    ${email}`,
        'Name:      (not set)',
        'Verified:  yes',
        '',
      ].join('\n'),
    });

    const json = await planwright(['whoami', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ email, has_verified_email: true, first_name: '' });

    const logout = await planwright(['logout']);
    expect(logout).toEqual({ code: 0, stdout: `Signed out of ${server.url} (${email}).\n`, stderr: '' });
    expect(await storedToken()).toBeUndefined();
    // The server ended the session too: the old token is dead.
    expect((await allauth('auth/session', { method: 'GET', token })).status).toBe(410);

    const after = await planwright(['whoami']);
    expect(after).toEqual({
      code: 3,
      stdout: '',
      stderr: `planwright: not signed in to ${server.url}\nRun \`planwright login\` to sign in.\n`,
    });

    for (const run of [login, whoami, json, logout, after])
      expect(run.stdout + run.stderr).not.toContain(PASSWORD);
  });

  it('prints the signed-in user as JSON with login --json', async () => {
    const email = 'cli-json@example.com';
    await createAccount(email);
    const login = await planwright(['login', '--json', '--email', email, '--password-stdin'], PASSWORD);
    expect(login.code).toBe(0);
    expect(JSON.parse(login.stdout)).toMatchObject({
      email,
      has_verified_email: true,
      id: expect.any(String),
    });
  });

  it('refuses a wrong password with the sign-in message and exit 1, storing nothing', async () => {
    const email = 'cli-wrong@example.com';
    await createAccount(email);
    const login = await planwright(['login', '--email', email, '--password-stdin'], 'not-the-password\n');
    expect(login).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'planwright: The email address and/or password you specified are not correct.\n' +
        'Check the e-mail address and the password, then try again. Signed up with Google? Make a personal access token in Profile › Security on the web, then `planwright login --token-stdin`.\n',
    });
    await expect(stat(sessionFile())).rejects.toThrow();
  });

  it('explains a pending verification (a new link is sent), exits 1 and keeps no token', async () => {
    const email = 'cli-unverified@example.com';
    await createAccount(email, { verified: false });
    const before = (await readOutbox(server.outboxDir)).filter((message) => message.to === email).length;

    const login = await planwright(['login', '--email', email, '--password-stdin'], PASSWORD);
    expect(login).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'planwright: Please verify your email address before signing in.\n' +
        `Check your inbox: a new verification link is on its way to ${email}. Open it, then run \`planwright login\` again.\n`,
    });
    expect(await storedToken()).toBeUndefined();
    await expect
      .poll(async () => (await readOutbox(server.outboxDir)).filter((message) => message.to === email).length)
      .toBe(before + 1);

    // Following the advice works: open the new link, log in again.
    const key = await lastKeyFor(server.outboxDir, email, '/account/verify-email/');
    expect((await allauth('auth/email/verify', { method: 'POST', body: { key } })).status).toBe(401);
    expect((await planwright(['login', '--email', email, '--password-stdin'], PASSWORD)).code).toBe(0);
  });

  it('says when already signed in, and when the session has ended on the server (exit 3, token removed)', async () => {
    const email = 'cli-expired@example.com';
    await createAccount(email);
    expect((await planwright(['login', '--email', email, '--password-stdin'], PASSWORD)).code).toBe(0);

    const again = await planwright(['login', '--email', email, '--password-stdin'], PASSWORD);
    expect(again).toMatchObject({
      code: 1,
      stderr: `planwright: already signed in to ${server.url} as ${email}\nRun \`planwright logout\` first to sign in as someone else.\n`,
    });

    // The session ends elsewhere (another device signing it out, a password reset, a timeout).
    const token = await storedToken();
    await allauth('auth/session', { method: 'DELETE', token });
    const whoami = await planwright(['whoami', '--json']);
    expect(whoami.code).toBe(3);
    expect(JSON.parse(whoami.stderr)).toEqual({
      error: {
        code: 'session_expired',
        message: `not signed in to ${server.url}: the session has expired or was ended, so its token was removed from this computer`,
        suggestion: 'Run `planwright login` to sign in again.',
        exitCode: 3,
      },
    });
    expect(await storedToken()).toBeUndefined();
  });

  it('refuses to prompt without a terminal, and asks for --email with --password-stdin', async () => {
    expect(await planwright(['login'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'planwright: cannot ask for the password: standard input or standard error is not a terminal\n' +
        'For scripts: `planwright login --email <address> --password-stdin`, with the password piped in.\n',
    });
    expect((await planwright(['login', '--password-stdin'], PASSWORD)).stderr).toBe(
      'planwright: --password-stdin: needs --email <address> too (there is nobody to ask for it)\n' +
        'Run `planwright login --help` for usage.\n',
    );
  });
});
