import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ApiError,
  type BlueprintDetail,
  createPlanwrightClient,
  MemoryTokenStore,
  type PlanwrightClient,
} from '@planwright/sdk';
import { lastKeyFor } from '@planwright/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BIN, ensureCliBuilt } from '../support/cli-binary.js';
import { corpusPath } from '../support/corpus.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * `planwright documents …` and `planwright blueprints …` as a script runs them: the built bin as a child
 * process with pipes (not a terminal), signed in with `planwright login`, against the real server. The
 * SDK sets up and checks what the commands cannot show by themselves.
 */
const bin = CLI_BIN;
const PASSWORD = 'a-sturdy-harbour-passphrase';

let server: TestServer;
let scratch: string;
let ada: Account;
let bob: Account;
let defaultBlueprint: BlueprintDetail;

interface Account {
  email: string;
  /** The same account through the SDK, for setting up and checking. */
  client: PlanwrightClient;
  /** Its own config directory, where `planwright login` keeps its session. */
  configDir: string;
}

interface Exit {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built bin as `account`, with stdin, stdout and stderr as pipes. */
function planwright(account: Account, args: string[], input = ''): Promise<Exit> {
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
          PLANWRIGHT_CONFIG_DIR: account.configDir,
          PLANWRIGHT_SERVER: server.url,
        },
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
    child.stdin?.end(input);
  });
}

/** Signs up and verifies through the SDK, then signs the CLI in with `planwright login`. */
async function createAccount(name: string): Promise<Account> {
  const email = `${name}@example.com`;
  const client = createPlanwrightClient({ baseUrl: server.url, tokenStore: new MemoryTokenStore() });
  await client.auth.signup({ email, password: PASSWORD, terms_agreement: true });
  const key = await lastKeyFor(server.outboxDir, email, '/account/verify-email/');
  expect((await client.auth.verifyEmail(key)).kind).toBe('authenticated');
  const account = { email, client, configDir: join(scratch, name) };
  const login = await planwright(account, ['login', '--email', email, '--password-stdin'], PASSWORD);
  expect(login).toMatchObject({ code: 0, stderr: '' });
  return account;
}

/** Whether `text` holds what a terminal acts on: C0/C1 controls but line feeds, and bidi controls. */
function hasTerminalControl(text: string): boolean {
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    if (code === 0x0a) continue;
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
    if ((code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)) return true;
    if (code === 0x200e || code === 0x200f || code === 0x061c) return true;
  }
  return false;
}

/** The uuid a `documents create` printed: `Created "…" (<uuid>).` */
function createdUuid(stdout: string): string {
  const uuid = /^Created ".*" \(([0-9a-f-]{36})\)\.\n/.exec(stdout)?.[1];
  if (!uuid) throw new Error(`no uuid in ${JSON.stringify(stdout)}`);
  return uuid;
}

async function statusOf(promise: Promise<unknown>): Promise<number | 'ok'> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (ApiError.isInstance(error)) return error.status;
    throw error;
  }
}

beforeAll(async () => {
  ensureCliBuilt();
  server = await startTestServer();
  scratch = mkdtempSync(join(tmpdir(), 'planwright-cli-documents-'));
  [ada, bob] = await Promise.all([createAccount('cli-ada'), createAccount('cli-bob')]);
  const { items } = await ada.client.blueprints.available({ pageSize: 100 });
  const seeded = items.find((blueprint) => blueprint.is_default);
  if (!seeded) throw new Error('the server has no default blueprint');
  defaultBlueprint = await ada.client.blueprints.get(seeded.uuid);
});

afterAll(async () => {
  await server?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('planwright blueprints against the real server', () => {
  it('lists the available blueprints, the default among them, as a table and as JSON', async () => {
    const table = await planwright(ada, ['blueprints', 'list', '--available']);
    expect(table).toMatchObject({ code: 0, stderr: '' });
    const [header, ...rows] = table.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^UUID {34}TITLE +STATUS +VISIBILITY +VERSION +PUBLISHER +UPDATED$/);
    const row = rows.find((line) => line.startsWith(defaultBlueprint.uuid));
    expect(row).toMatch(
      /^\S{36} {2}Business Plan +Published +public +1 +Planwright Studio +\d{4}-\d\d-\d\d \d\d:\d\d UTC$/,
    );

    const json = await planwright(ada, ['blueprints', 'list', '--available', '--json']);
    const page = JSON.parse(json.stdout) as { items: { uuid: string; is_default: boolean }[]; total: number };
    expect(page.total).toBeGreaterThanOrEqual(1);
    expect(page.items.find((item) => item.is_default)?.uuid).toBe(defaultBlueprint.uuid);
  });

  it('lists your own blueprints: none at first, then the one you made', async () => {
    const empty = await planwright(bob, ['blueprints', 'list']);
    expect(empty).toEqual({
      code: 0,
      stderr: '',
      stdout:
        'You have no blueprints yet. `planwright blueprints list --available` shows the ones you can use.\n',
    });
    const made = await bob.client.blueprints.create({ title: 'Bob’s canvas' });
    const listed = await planwright(bob, ['blueprints', 'list']);
    expect(listed.stdout.split('\n')[1]).toMatch(
      new RegExp(`^${made.uuid} {2}Bob’s canvas +Draft +private +1 +cli-bob +`),
    );
  });

  it('shows a blueprint’s fields, system prompt and outline', async () => {
    const shown = await planwright(ada, ['blueprints', 'show', defaultBlueprint.uuid]);
    expect(shown).toMatchObject({ code: 0, stderr: '' });
    const lines = shown.stdout.split('\n');
    expect(lines.slice(0, 5)).toEqual([
      'Business Plan',
      `UUID:        ${defaultBlueprint.uuid}`,
      'Status:      Published',
      'Version:     1',
      'Visibility:  public',
    ]);
    expect(shown.stdout).toContain('\nPublisher:   Planwright Studio\n');
    expect(shown.stdout).toContain('\nSections:    9\n');
    expect(shown.stdout).toContain('\nYours:       no\n');
    const outline = lines.slice(lines.indexOf('Outline:') + 1).filter((line) => /^ {2}\d+\. /.test(line));
    expect(outline).toEqual(
      defaultBlueprint.sections.map(
        (section, index) =>
          `  ${index + 1}. ${section.title}${section.tool_mode === '' ? '' : ` (${section.tool_mode})`}`,
      ),
    );

    const json = JSON.parse(
      (await planwright(ada, ['blueprints', 'show', defaultBlueprint.uuid, '--json'])).stdout,
    );
    expect(json).toMatchObject({ uuid: defaultBlueprint.uuid, is_default: true, content: { type: 'doc' } });
  });

  it('says "Blueprint not found." (exit 1) for a uuid nobody may see', async () => {
    const hidden = await bob.client.blueprints.create({ title: 'Bob’s secret' });
    for (const uuid of [hidden.uuid, '00000000-0000-4000-8000-000000000000']) {
      expect(await planwright(ada, ['blueprints', 'show', uuid])).toEqual({
        code: 1,
        stdout: '',
        stderr:
          'planwright: Blueprint not found.\nRun `planwright blueprints list --available` to see the blueprints you can use.\n',
      });
    }
  });
});

describe('planwright documents against the real server', () => {
  it('creates a blueprint, publishes it (then a new version), refuses an older version, and unpublishes', async () => {
    const created = await planwright(ada, ['blueprints', 'create', '--title', 'Studio template', '--json']);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const blueprint = JSON.parse(created.stdout) as BlueprintDetail;
    expect(blueprint).toMatchObject({ title: 'Studio template', status: 'draft', visibility: 'private' });

    const first = await planwright(ada, ['blueprints', 'publish', blueprint.uuid, '--visibility', 'public']);
    expect(first).toEqual({
      code: 0,
      stderr: '',
      stdout: 'Published "Studio template" version 1 (public).\n',
    });
    const second = await planwright(ada, ['blueprints', 'publish', blueprint.uuid]);
    expect(second.stdout).toBe('Published "Studio template" version 2 (public).\n');
    const older = await planwright(ada, ['blueprints', 'publish', blueprint.uuid, '--version', '2']);
    expect(older.code).toBe(1);
    expect(older.stderr).toContain('version: Publish a version above 2.');
    const tenth = await planwright(ada, [
      'blueprints',
      'publish',
      blueprint.uuid,
      '--version',
      '10',
      '--json',
    ]);
    expect(JSON.parse(tenth.stdout)).toMatchObject({ version: 10, status: 'published' });
    // Bob can use it now, and his document remembers the version.
    const made = await bob.client.documents.create({ blueprint: blueprint.uuid });
    expect(made.blueprint_version).toBe(10);

    const notHis = await planwright(bob, ['blueprints', 'unpublish', blueprint.uuid]);
    expect(notHis).toMatchObject({ code: 1, stdout: '' });
    expect(notHis.stderr).toContain('Blueprint not found.');
    const draft = await planwright(ada, ['blueprints', 'unpublish', blueprint.uuid]);
    expect(draft.stdout).toBe('Unpublished "Studio template"; it is a draft again.\n');
    expect((await ada.client.blueprints.get(blueprint.uuid)).status).toBe('draft');
    expect((await bob.client.documents.get(made.uuid)).blueprint_version).toBe(10);
  });

  it('creates, publishes and unpublishes blueprints with hostile titles: safe on the terminal, exact with --json', async () => {
    const carol = await createAccount('cli-carol');
    const title = 'Plan \u202egnp.exe\u202c <script>alert(1)</script> مرحبا 👩‍👩‍👧';
    const shown = 'Plan gnp.exe <script>alert(1)</script> مرحبا 👩‍👩‍👧';
    const created = await planwright(carol, ['blueprints', 'create', '--title', title]);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const uuid = createdUuid(created.stdout);
    expect(created.stdout).toBe(
      `Created "${shown}" (${uuid}).\nIt is a private draft: write it in the web editor at /dashboard/blueprints/${uuid}/edit, then \`planwright blueprints publish ${uuid}\`.\n`,
    );
    expect((await carol.client.blueprints.get(uuid)).title).toBe(title);
    // Escape sequences are refused before anything is sent.
    const escaped = await planwright(carol, ['blueprints', 'create', '--title', 'A\u001b[2Jb']);
    expect(escaped).toMatchObject({ code: 2, stdout: '' });
    expect(escaped.stderr).toContain('--title: ');

    const published = await planwright(carol, ['blueprints', 'publish', uuid, '--visibility', 'unlisted']);
    expect(published).toEqual({
      code: 0,
      stderr: '',
      stdout: `Published "${shown}" version 1 (unlisted).\n`,
    });
    const json = JSON.parse((await planwright(carol, ['blueprints', 'publish', uuid, '--json'])).stdout);
    expect(json).toMatchObject({ title, version: 2, visibility: 'unlisted', status: 'published' });
    const foreign = await planwright(carol, [
      'blueprints',
      'publish',
      uuid,
      '--visibility',
      'restricted',
      '--org',
      '00000000-0000-4000-8000-000000000000',
    ]);
    expect(foreign).toMatchObject({ code: 1, stdout: '' });
    expect(foreign.stderr).toContain('allowed_orgs: Choose organisations you belong to.');
    const orgAlone = await planwright(carol, [
      'blueprints',
      'publish',
      uuid,
      '--org',
      '00000000-0000-4000-8000-000000000000',
    ]);
    expect(orgAlone).toMatchObject({ code: 2, stdout: '' });
    expect(orgAlone.stderr).toContain('--org: only goes with --visibility restricted');
    const unpublished = await planwright(carol, ['blueprints', 'unpublish', uuid]);
    expect(unpublished.stdout).toBe(`Unpublished "${shown}"; it is a draft again.\n`);
    expect(await carol.client.blueprints.get(uuid)).toMatchObject({ status: 'draft', version: 2 });

    // Every title from the hostile corpus the server stores is printed without a terminal control.
    const hostile = JSON.parse(readFileSync(corpusPath('hostile-strings/blns.json'), 'utf8')) as string[];
    let stored = 0;
    for (const text of hostile) {
      if (stored === 60) break;
      const response = await carol.client.http.raw('POST', 'blueprints/', { body: { title: text } });
      if (response.status === 201) stored += 1;
      else expect(response.status, JSON.stringify(text)).toBe(400);
    }
    expect(stored).toBe(60);
    const list = await planwright(carol, ['blueprints', 'list', '--page-size', '100']);
    expect(list).toMatchObject({ code: 0, stderr: '' });
    expect(list.stdout.trimEnd().split('\n').length).toBeGreaterThan(stored);
    expect(hasTerminalControl(list.stdout)).toBe(false);
    const { items } = await carol.client.blueprints.list({ pageSize: 3 });
    for (const item of items) {
      const run = await planwright(carol, ['blueprints', 'publish', item.uuid]);
      expect(run, JSON.stringify(item.title)).toMatchObject({ code: 0, stderr: '' });
      expect(hasTerminalControl(run.stdout)).toBe(false);
    }
  });

  it('creates from the default blueprint, lists, shows, renames and deletes', async () => {
    const created = await planwright(ada, ['documents', 'create', '--blueprint', defaultBlueprint.uuid]);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const uuid = createdUuid(created.stdout);
    expect(created.stdout).toBe(
      `Created "Business Plan" (${uuid}).\nShow it with \`planwright documents show ${uuid}\`.\n`,
    );
    const document = await ada.client.documents.get(uuid);
    expect(document.sections).toHaveLength(9);
    const total = document.progress.total;

    const titled = await planwright(ada, [
      'documents',
      'create',
      '--blueprint',
      defaultBlueprint.uuid,
      '--title',
      '  Acme plan ',
      '--json',
    ]);
    const titledDocument = JSON.parse(titled.stdout) as { uuid: string; title: string; content: unknown };
    expect(titledDocument).toMatchObject({ title: 'Acme plan', content: { type: 'doc' } });

    const list = await planwright(ada, ['documents', 'list']);
    expect(list).toMatchObject({ code: 0, stderr: '' });
    const [header, ...rows] = list.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^UUID {34}TITLE +STATUS +PROGRESS +UPDATED$/);
    // Most recently changed first.
    expect(rows.map((row) => row.slice(0, 36))).toEqual([titledDocument.uuid, uuid]);
    expect(rows[1]).toMatch(
      new RegExp(
        `^${uuid} {2}Business Plan +In-progress +0% \\(0/${total}\\) +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC$`,
      ),
    );
    const json = JSON.parse((await planwright(ada, ['documents', 'list', '--json'])).stdout) as {
      items: { uuid: string }[];
      total: number;
    };
    expect(json.total).toBe(2);
    expect(json.items.map((item) => item.uuid)).toEqual([titledDocument.uuid, uuid]);
    const paged = await planwright(ada, ['documents', 'list', '--page-size', '1']);
    expect(paged.stdout).toContain(
      '\n1 of 2 documents (page 1). Next: `planwright documents list --page 2 --page-size 1`\n',
    );

    const shown = await planwright(ada, ['documents', 'show', uuid]);
    expect(shown).toMatchObject({ code: 0, stderr: '' });
    const lines = shown.stdout.split('\n');
    expect(lines.slice(0, 5)).toEqual([
      'Business Plan',
      `UUID:       ${uuid}`,
      'Status:     In-progress',
      `Progress:   0% (0/${total} subsections)`,
      'Blueprint:  Business Plan',
    ]);
    expect(shown.stdout).toContain('\nRevision:   1\n');
    expect(shown.stdout).toContain('\nDescription:\n  This document has no description yet.\n');
    const [firstSection] = document.sections;
    const [firstSubsection] = firstSection?.subsections ?? [];
    expect(shown.stdout).toContain(
      `\nOutline:\n  1. ${firstSection?.title}\n     [ ] 1.1 ${firstSubsection?.title}\n`,
    );

    expect(await planwright(ada, ['documents', 'rename', uuid, ' Acme 2027 '])).toEqual({
      code: 0,
      stderr: '',
      stdout: 'Renamed to "Acme 2027".\n',
    });
    expect((await ada.client.documents.get(uuid)).title).toBe('Acme 2027');

    // Without a terminal, delete needs --yes: nothing is deleted.
    expect(await planwright(ada, ['documents', 'delete', uuid])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'planwright: refusing to delete without confirmation: this is not a terminal\nPass --yes to delete without being asked.\n',
    });
    expect(await statusOf(ada.client.documents.get(uuid))).toBe('ok');
    expect(await planwright(ada, ['documents', 'delete', uuid, '--yes'])).toEqual({
      code: 0,
      stderr: '',
      stdout: `Deleted document ${uuid}.\n`,
    });
    expect(await statusOf(ada.client.documents.get(uuid))).toBe(404);
    expect(
      JSON.parse(
        (await planwright(ada, ['documents', 'delete', titledDocument.uuid, '-y', '--json'])).stdout,
      ),
    ).toEqual({
      uuid: titledDocument.uuid,
      deleted: true,
    });
    expect((await planwright(ada, ['documents', 'list'])).stdout).toMatch(/^No documents yet\.\n/);
  });

  it('says "Document not found." (exit 1) for someone else’s document, and changes nothing', async () => {
    const document = await bob.client.documents.create({
      blueprint: defaultBlueprint.uuid,
      title: 'Bob’s plan',
    });
    const notFound = {
      code: 1,
      stdout: '',
      stderr: 'planwright: Document not found.\nRun `planwright documents list` to see your documents.\n',
    };
    expect(await planwright(ada, ['documents', 'show', document.uuid])).toEqual(notFound);
    expect(await planwright(ada, ['documents', 'rename', document.uuid, 'Mine now'])).toEqual(notFound);
    expect(await planwright(ada, ['documents', 'delete', document.uuid, '--yes'])).toEqual(notFound);
    expect(await planwright(ada, ['documents', 'show', '00000000-0000-4000-8000-000000000000'])).toEqual(
      notFound,
    );
    expect(await bob.client.documents.get(document.uuid)).toEqual(document);
    // A 404 is not a sign-out: Ada is still signed in.
    expect((await planwright(ada, ['whoami'])).code).toBe(0);
  });

  it('reports the server refusing a blueprint the user may not use (exit 1)', async () => {
    const draft = await bob.client.blueprints.create({ title: 'Bob’s draft' });
    const result = await planwright(ada, ['documents', 'create', '--blueprint', draft.uuid]);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toMatch(/^planwright: the server answered 400/);
  });

  it('prints hostile titles and descriptions safely, and exactly as stored with --json', async () => {
    // The server refuses escape sequences and other control characters in titles...
    const document = await ada.client.documents.create({ blueprint: defaultBlueprint.uuid });
    const refused = await ada.client.http.raw('PATCH', `documents/${document.uuid}/`, {
      body: { title: 'Pwned\u001b[2J\u001b]0;title\u0007' },
    });
    expect(refused.status).toBe(400);
    // ...and so does the CLI, before sending anything.
    expect(await planwright(ada, ['documents', 'rename', document.uuid, 'A\u001b[2Jb'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'planwright: <title>: Must not contain control characters\n',
    });
    // What it stores: bidirectional overrides, right-to-left text, markup; line breaks and carriage
    // returns in descriptions.
    const title = 'Plan \u202egnp.exe\u202c <script>alert(1)</script> مرحبا 👩‍👩‍👧';
    const description = 'First line\rOverwritten?\r\nSecond\tline \u2067isolated\u2069';
    await ada.client.documents.update(document.uuid, { title, description });
    const section = document.sections[0];
    if (!section) throw new Error('sections expected');
    await ada.client.documents.sections.update(document.uuid, section.uuid, { title: 'Intro \u202eevil' });

    const list = await planwright(ada, ['documents', 'list']);
    const shown = await planwright(ada, ['documents', 'show', document.uuid]);
    for (const run of [list, shown]) {
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(hasTerminalControl(run.stdout)).toBe(false);
    }
    // The list cuts the title at 40 columns; show prints it whole.
    expect(list.stdout).toContain(`${document.uuid}  Plan gnp.exe <script>alert(1)</script> …  In-progress`);
    expect(shown.stdout).toMatch(/^Plan gnp\.exe <script>alert\(1\)<\/script> مرحبا 👩‍👩‍👧\n/);
    expect(shown.stdout).toContain('\nDescription:\n  First line\n  Overwritten?\n  Second line isolated\n');
    expect(shown.stdout).toContain('\n  1. Intro evil\n');

    const json = JSON.parse(
      (await planwright(ada, ['documents', 'show', document.uuid, '--json'])).stdout,
    ) as {
      title: string;
      description: string;
    };
    expect(json).toMatchObject({ title, description });

    await ada.client.documents.delete(document.uuid);
  });
});
