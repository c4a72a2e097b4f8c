import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PersonalToken } from '@planwright/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliAccount, type CliOutcome, cliAccounts } from '../support/cli-accounts.js';
import { ensureCliBuilt, runCliBinary } from '../support/cli-binary.js';
import { TEST_PASSWORD } from '../support/sdk-accounts.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Personal access tokens as a script uses them (docs/cli.md "Personal access tokens"): the built bin as a child
 * process with pipes, against the real server. One is made by a password sign-in with `planwright tokens create`,
 * then signs a fresh computer in with `login --token-stdin`, or a single run with `PLANWRIGHT_TOKEN`; a read-only
 * one is refused every change with the server's reason; revoked, it stops working at once.
 *
 * An account made with Google (no password) cannot be made from here (the server's storage is not reachable
 * from the bin's side): its `login --token-stdin` is covered against the fake server in
 * packages/cli/test/login-command.test.ts.
 */

let server: TestServer;
let scratch: string;

const { planwright, createAccount } = cliAccounts(() => ({ server, scratch }), 'tokens.example');

/** The bin run in a config directory of its own (a fresh computer), with more of the environment. */
async function fresh(
  configDir: string,
  args: string[],
  options: { input?: string; env?: Record<string, string> } = {},
): Promise<CliOutcome> {
  const exit = await runCliBinary(
    { cwd: scratch, configDir: join(scratch, configDir), serverUrl: server.url, env: options.env ?? {} },
    args,
    options.input ?? '',
  );
  return { code: exit.code, stdout: exit.stdout.toString('utf8'), stderr: exit.stderr };
}

/** `tokens create … --json` as `account`: the token and what the server says of it. */
async function createToken(account: CliAccount, args: string[]): Promise<PersonalToken & { token: string }> {
  const made = await planwright(account, ['tokens', 'create', ...args, '--json']);
  expect(made).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(made.stdout) as PersonalToken & { token: string };
}

beforeAll(async () => {
  ensureCliBuilt();
  server = await startTestServer();
  scratch = mkdtempSync(join(tmpdir(), 'planwright-cli-tokens-'));
});

afterAll(async () => {
  await server?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('planwright tokens against the real server', () => {
  it('makes a token right after login, which signs a fresh computer in; revoked, it stops working at once', async () => {
    const owner = await createAccount('owner');
    await owner.client.documents.create({ title: 'Bakery plan' });

    // Right after `planwright login`: no reauthentication needed. The token itself is in `token`.
    const nightly = await createToken(owner, ['--name', 'nightly']);
    expect(nightly).toEqual({
      token: expect.stringMatching(/^pwt_[A-Za-z0-9_-]{43}$/),
      id: expect.any(Number),
      name: 'nightly',
      scope: 'write',
      token_hint: nightly.token.slice(0, 8),
      created_at: expect.any(Number),
      expires_at: expect.any(Number),
      last_used_at: null,
    });
    // Unix seconds with milliseconds: 90 days apart, to the millisecond (not bit for bit in floating point).
    expect((nightly.expires_at ?? 0) - nightly.created_at).toBeCloseTo(90 * 86_400, 3);

    // Without --json, standard output is the token alone (`token=$(…)`), and what it can do is on stderr.
    const plain = await planwright(owner, ['tokens', 'create', '--name', 'weekly', '--expires', '7']);
    expect(plain).toEqual({
      code: 0,
      stdout: expect.stringMatching(/^pwt_[A-Za-z0-9_-]{43}\n$/),
      stderr: expect.stringMatching(
        /^Read-write token “weekly”: it can read and change all your account can, until \d{4}-\d\d-\d\d \d\d:\d\d UTC\. It is shown only now: keep it\.\n$/,
      ),
    });

    // A fresh computer signs in with the token piped in, and works as the owner.
    expect(await fresh('laptop', ['login', '--token-stdin'], { input: `${nightly.token}\n` })).toEqual({
      code: 0,
      stdout: `Signed in to ${server.url} as ${owner.email} with a personal access token.\n`,
      stderr: '',
    });
    const documents = await fresh('laptop', ['documents', 'list', '--json']);
    expect(documents).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(documents.stdout)).toMatchObject({ total: 1, items: [{ title: 'Bakery plan' }] });
    const whoami = await fresh('laptop', ['whoami']);
    expect(whoami).toMatchObject({ code: 0, stderr: '' });
    expect(whoami.stdout).toContain(`E-mail:    ${owner.email}\n`);
    expect(whoami.stdout).toContain('Token:     personal access token\n');

    // A token cannot make others: refused before the allauth endpoints are asked (they would answer 410).
    expect(await fresh('laptop', ['tokens', 'create', '--name', 'another'])).toMatchObject({
      code: 1,
      stdout: '',
      stderr: expect.stringMatching(
        /^planwright: Sign in with `planwright login` \(a password or e-mail sign-in\) to make tokens; a personal access token cannot make others\.\n/,
      ),
    });

    // Its owner lists the tokens, newest first; never the tokens themselves. (The last use is kept a minute or
    // more after the one before, so here, moments after it was made, it may still be `never`.)
    const listed = await planwright(owner, ['tokens', 'list', '--json']);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    const tokens = JSON.parse(listed.stdout) as PersonalToken[];
    expect(tokens.map((token) => token.name)).toEqual(['weekly', 'nightly']);
    expect(tokens[1]).toEqual({ ...nightly, token: undefined, last_used_at: tokens[1]?.last_used_at });
    expect(listed.stdout).not.toContain(nightly.token);
    const table = await planwright(owner, ['tokens', 'list']);
    expect(table.stdout).toMatch(
      new RegExp(
        `^ID +NAME +SCOPE +CREATED +EXPIRES +LAST USED\\n\\d+ +weekly +read-write +.+ UTC +.+ UTC +never\\n${nightly.id} +nightly +read-write +.+ UTC +.+ UTC +(never|\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC)\\n$`,
      ),
    );

    // Revoked: it stops working at once, and the fresh computer is told so.
    expect(await planwright(owner, ['tokens', 'revoke', String(nightly.id)])).toEqual({
      code: 0,
      stdout: `Revoked the token ${nightly.id}: it stops working at once.\n`,
      stderr: '',
    });
    expect(await fresh('laptop', ['documents', 'list'])).toEqual({
      code: 3,
      stdout: '',
      stderr:
        `planwright: not signed in to ${server.url}: the personal access token has expired or was revoked, so it was removed from this computer\n` +
        'Make a new one and pipe it to `planwright login --token-stdin`, or run `planwright login` to sign in with your password.\n',
    });
    expect(await fresh('elsewhere', ['login', '--token-stdin'], { input: nightly.token })).toMatchObject({
      code: 1,
      stdout: '',
      stderr: expect.stringContaining('refused the personal access token'),
    });
    expect(await planwright(owner, ['tokens', 'revoke', String(nightly.id)])).toEqual({
      code: 1,
      stdout: '',
      stderr: `planwright: Token not found: ${nightly.id}.\nRun \`planwright tokens list\` to see your tokens and their ids.\n`,
    });
  });

  it('PLANWRIGHT_TOKEN signs one run in; a read-only token reads and is refused every change', async () => {
    const owner = await createAccount('reader');
    await owner.client.documents.create({ title: 'Cafe plan' });
    const reader = await createToken(owner, ['--name', 'dashboard', '--read-only', '--expires', '30']);
    expect(reader).toMatchObject({ scope: 'read' });
    expect((reader.expires_at ?? 0) - reader.created_at).toBeCloseTo(30 * 86_400, 3);
    const env = { PLANWRIGHT_TOKEN: reader.token };

    const listed = await fresh('ci', ['documents', 'list', '--json'], { env });
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(listed.stdout)).toMatchObject({ total: 1, items: [{ title: 'Cafe plan' }] });

    expect(await fresh('ci', ['documents', 'create', '--title', 'Not by a reader'], { env })).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'planwright: This personal access token is read-only: make a read-write token to change anything.\n',
    });
    expect(await owner.client.documents.list()).toMatchObject({ total: 1 });

    // The variable is never written anywhere: the fresh computer has no session of its own.
    expect(await fresh('ci', ['whoami'])).toMatchObject({ code: 3 });
    // And logout there says to unset it.
    const logout = await fresh('ci', ['logout'], { env });
    expect(logout).toMatchObject({ code: 0, stdout: `Not signed in to ${server.url}: nothing to do.\n` });
    expect(logout.stderr).toContain('PLANWRIGHT_TOKEN is set, so commands keep using its token: unset it');
  });

  it('a wrong password says, for every address alike, how an account made with Google signs in', async () => {
    const owner = await createAccount('hinted');
    const hint =
      'Signed up with Google? Make a personal access token in Profile › Security on the web, then `planwright login --token-stdin`.';
    const wrong = await fresh('hinted-2', ['login', '--email', owner.email, '--password-stdin'], {
      input: `not-${TEST_PASSWORD}\n`,
    });
    const unknown = await fresh(
      'hinted-3',
      ['login', '--email', 'nobody@tokens.example', '--password-stdin'],
      {
        input: TEST_PASSWORD,
      },
    );
    expect(wrong).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'planwright: The email address and/or password you specified are not correct.\n' +
        `Check the e-mail address and the password, then try again. ${hint}\n`,
    });
    expect(unknown).toEqual(wrong);
  });
});
