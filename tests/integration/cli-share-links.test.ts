import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CreatedShareLink, ShareLink } from '@planwright/sdk';
import type { DocumentJson } from '@planwright/sdk/model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliAccount, cliAccounts } from '../support/cli-accounts.js';
import { ensureCliBuilt } from '../support/cli-binary.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * `planwright share-link` as a script runs it: the built bin as a child process with pipes, signed in with
 * `planwright login`, against the real server (docs/versions.md "Share links"). The link it prints is then read as
 * someone without an account reads it: plain `fetch`, no session, only the cookies the reader page sets.
 */

let server: TestServer;
let scratch: string;

const { planwright, createAccount } = cliAccounts(() => ({ server, scratch }), 'share-links.example');

const LINK_PASSWORD = 'open sesame, investors';
const FINALIZED_TEXT = 'We sell sourdough to the cafes of the old town.';
const DRAFT_TEXT = 'Draft: the numbers are not ready for investors.';

interface Node {
  type: string;
  text?: string;
  attrs?: Record<string, unknown>;
  content?: Node[];
}

/**
 * Writes `first` into the plan's first subsection and `second` into its second, through the SDK (a script's REST
 * write); the first is finalized when `finalizeFirst`.
 */
async function writeSubsections(
  account: CliAccount,
  uuid: string,
  first: string,
  second: string,
  finalizeFirst: boolean,
): Promise<void> {
  const { content } = await account.client.documents.get(uuid);
  if (content === null) throw new Error('the document has content');
  const copy = structuredClone(content) as unknown as Node;
  const subsections = (copy.content ?? []).flatMap((section) =>
    (section.content ?? []).filter((node) => node.type === 'subsection'),
  );
  const [done, draft] = subsections;
  if (!done || !draft) throw new Error('the default blueprint has two subsections at least');
  const say = (subsection: Node, text: string) => {
    subsection.content = [
      subsection.content?.[0] as Node,
      { type: 'paragraph', content: [{ type: 'text', text }] },
    ];
  };
  say(done, first);
  say(draft, second);
  (done.attrs as { finalized: boolean }).finalized = finalizeFirst;
  await account.client.documents.update(uuid, { content: copy as unknown as DocumentJson });
}

/** The `name=value` of the cookie `name` a response sets. */
function cookieOf(response: Response, name: string): string | undefined {
  const found = response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${name}=`));
  return found?.split(';')[0];
}

beforeAll(async () => {
  ensureCliBuilt();
  // The links' URLs point back at this server, as a deployment's PUBLIC_URL makes them.
  server = await startTestServer({ ownPublicUrl: true });
  scratch = mkdtempSync(join(tmpdir(), 'planwright-cli-share-links-'));
});

afterAll(async () => {
  await server?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('planwright share-link against the real server', () => {
  it('makes a link with a password, which a reader without an account opens, is counted, and answers 410 once turned off', async () => {
    const owner = await createAccount('owner');
    const plan = await owner.client.documents.create({ title: 'Bakery plan' });
    await writeSubsections(owner, plan.uuid, FINALIZED_TEXT, DRAFT_TEXT, true);

    // The password is piped in; standard output is the URL alone, what it shows is said on standard error.
    const created = await planwright(
      owner,
      ['share-link', 'create', plan.uuid, '--allow-download', '--password-stdin'],
      `${LINK_PASSWORD}\n`,
    );
    expect(created).toEqual({
      code: 0,
      stdout: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/s\/[A-Za-z0-9_-]{43}\n$/),
      stderr:
        'Link to the latest finalized subsections; anyone with it and its password can read them and download them as PDF and Word. It is shown only now: keep it.\n',
    });
    const url = created.stdout.trim();
    expect(new URL(url).origin).toBe(server.url);

    // A reader without an account is asked for the password, and sees nothing of the plan yet.
    const locked = await fetch(url);
    expect(locked.status).toBe(200);
    expect(locked.headers.get('content-type')).toMatch(/^text\/html/);
    const form = await locked.text();
    expect(form).toContain('name="password"');
    expect(form).not.toContain(FINALIZED_TEXT);

    // The right password unlocks it for this link: a 303 back to it, with the proof in a cookie.
    const unlocked = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ password: LINK_PASSWORD }).toString(),
      redirect: 'manual',
    });
    expect(unlocked.status).toBe(303);
    expect(unlocked.headers.get('location')).toBe(new URL(url).pathname);
    const unlock = cookieOf(unlocked, 'pw_unlock');
    expect(unlock).toMatch(/^pw_unlock=.+/);

    // With it, the page shows the finalized subsection, and not the draft.
    const page = await fetch(url, { headers: { cookie: unlock ?? '' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(FINALIZED_TEXT);
    expect(html).not.toContain(DRAFT_TEXT);

    // The owner sees the reading: one view, by one visitor.
    const listed = await planwright(owner, ['share-link', 'list', plan.uuid, '--json']);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    const links = JSON.parse(listed.stdout) as ShareLink[];
    expect(links).toEqual([
      expect.objectContaining({
        version: null,
        status: 'active',
        has_password: true,
        allow_download: true,
        expires_at: null,
        created_by: expect.objectContaining({ username: owner.username }),
        token_hint: new URL(url).pathname.slice(3, 7),
        views: expect.objectContaining({ total: 1, unique_visitors: 1, last_viewed_at: expect.any(String) }),
      }),
    ]);
    const [link] = links;
    expect(listed.stdout).not.toContain(url);
    const table = await planwright(owner, ['share-link', 'list', plan.uuid]);
    expect(table).toMatchObject({ code: 0, stderr: '' });
    expect(table.stdout).toMatch(
      new RegExp(
        `^ID +LABEL +SHOWS +STATUS +EXPIRES +PASSWORD +DOWNLOAD +VIEWS +VISITORS +LAST VIEWED\\n${link?.id} {2}- +latest finalized +active +never +yes +yes +1 +1 +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\n$`,
      ),
    );

    // Turned off by its URL: from the next request on, it answers 410 Gone, even with the cookie.
    expect(await planwright(owner, ['share-link', 'revoke', plan.uuid, url])).toEqual({
      code: 0,
      stdout: `Turned off the link ${link?.id}: it now answers 410 Gone.\n`,
      stderr: '',
    });
    expect((await fetch(url)).status).toBe(410);
    expect((await fetch(url, { headers: { cookie: unlock ?? '' } })).status).toBe(410);
    const after = JSON.parse((await planwright(owner, ['share-link', 'list', plan.uuid, '--json'])).stdout);
    expect(after).toEqual([expect.objectContaining({ id: link?.id, status: 'revoked' })]);

    // Turning it off again is done already.
    expect(await planwright(owner, ['share-link', 'revoke', plan.uuid, link?.id ?? ''])).toMatchObject({
      code: 0,
      stderr: '',
    });
  });

  it('shows a version named by --version, expires when asked, and refuses a date in the past', async () => {
    const owner = await createAccount('founder');
    const plan = await owner.client.documents.create({ title: 'Bakery plan' });
    await writeSubsections(owner, plan.uuid, 'Bread for the whole town.', DRAFT_TEXT, false);
    expect(
      await planwright(owner, ['versions', 'create', plan.uuid, '--name', 'Sent to bank, v3']),
    ).toMatchObject({ code: 0, stderr: '' });
    // The plan changes after the version was kept.
    await writeSubsections(owner, plan.uuid, 'Cakes only.', DRAFT_TEXT, true);

    const before = Date.now();
    const created = await planwright(owner, [
      'share-link',
      'create',
      plan.uuid,
      '--version',
      'sent to bank, v3',
      '--expires',
      '30d',
      '--label',
      'Acme Ventures',
      '--json',
    ]);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const link = JSON.parse(created.stdout) as CreatedShareLink;
    expect(link).toMatchObject({
      label: 'Acme Ventures',
      version: { name: 'Sent to bank, v3', kind: 'named' },
      has_password: false,
      allow_download: false,
      status: 'active',
      url: expect.stringMatching(/\/s\/[A-Za-z0-9_-]{43}$/),
    });
    const expires = Date.parse(link.expires_at ?? '');
    const days30 = 30 * 24 * 60 * 60 * 1000;
    expect(expires).toBeGreaterThanOrEqual(before + days30);
    expect(expires).toBeLessThanOrEqual(Date.now() + days30);

    // The reader sees the plan as the version kept it, all of it, whatever it says now.
    const page = await fetch(link.url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Bread for the whole town.');
    expect(html).not.toContain('Cakes only.');

    // A version the plan does not have.
    expect(await planwright(owner, ['share-link', 'create', plan.uuid, '--version', 'v9'])).toEqual({
      code: 1,
      stdout: '',
      stderr: `planwright: Version not found: “v9”.\nRun \`planwright versions list ${plan.uuid}\` to see the document's versions.\n`,
    });

    // A date in the past is a usage error, before the server is asked: nothing on stdout, nothing made.
    expect(await planwright(owner, ['share-link', 'create', plan.uuid, '--expires', '2020-01-01'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'planwright: --expires: "2020-01-01" is in the past: the link would expire before anyone reads it; choose a later date\nRun `planwright share-link create --help` for usage.\n',
    });
    expect(await planwright(owner, ['share-link', 'create', plan.uuid, '--expires', 'soon'])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: expect.stringMatching(/^planwright: --expires: "soon" is not a date: use a date \(YYYY-MM-DD/),
    });
    expect(await owner.client.shareLinks.list(plan.uuid)).toHaveLength(1);
  });
});
