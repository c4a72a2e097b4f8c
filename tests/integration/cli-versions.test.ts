import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DocumentVersion, VersionDiff } from '@planwright/sdk';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliAccount, cliAccounts } from '../support/cli-accounts.js';
import { ensureCliBuilt } from '../support/cli-binary.js';
import { blockText, firstSubsectionParagraph } from '../support/live-replicas.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * `planwright versions` as a script runs it: the built bin as a child process with pipes, signed in with
 * `planwright login`, against the real server (docs/versions.md). The plan is written through the SDK between
 * the commands; what a restore brings back is read through the SDK too.
 */

let server: TestServer;
let scratch: string;

const { planwright, createAccount } = cliAccounts(() => ({ server, scratch }), 'versions.example');

/** Writes `text` as the first paragraph of the plan's first subsection, through the SDK (a script's REST write). */
async function writeFirstParagraph(account: CliAccount, uuid: string, text: string): Promise<void> {
  const { content } = await account.client.documents.get(uuid);
  if (content === null) throw new Error('the document has content');
  firstSubsectionParagraph(content).content = [{ type: 'text', text }];
  await account.client.documents.update(uuid, { content });
}

/** The first paragraph of the plan's first subsection, as stored. */
async function firstParagraph(account: CliAccount, uuid: string): Promise<string> {
  const { content } = await account.client.documents.get(uuid);
  if (content === null) throw new Error('the document has content');
  return blockText(firstSubsectionParagraph(content));
}

beforeAll(async () => {
  ensureCliBuilt();
  server = await startTestServer();
  scratch = mkdtempSync(join(tmpdir(), 'planwright-cli-versions-'));
});

afterAll(async () => {
  await server?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('planwright versions against the real server', () => {
  it('keeps a named version, lists and shows it, restores it, and the printed command undoes the restore', async () => {
    const [owner, investor] = await Promise.all([createAccount('owner'), createAccount('investor')]);
    const plan = await owner.client.documents.create({ title: 'Bakery plan' });
    await writeFirstParagraph(owner, plan.uuid, 'Bread for the whole town.');

    // Kept under a name: one line naming it, the plan and the version's id.
    const created = await planwright(owner, ['versions', 'create', plan.uuid, '--name', 'v1']);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const v1 = /^Kept version “v1” of “Bakery plan” \(([0-9a-f-]{36})\)\.\n$/.exec(created.stdout)?.[1];
    expect(v1, created.stdout).toBeDefined();

    // The plan changes afterwards.
    await writeFirstParagraph(owner, plan.uuid, 'Cakes only.');

    // Listed, newest first, with who kept it; a second version of that name is refused by the server.
    const listed = await planwright(owner, ['versions', 'list', plan.uuid, '--json']);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    const versions = JSON.parse(listed.stdout) as DocumentVersion[];
    expect(versions.filter((version) => version.kind === 'named')).toEqual([
      {
        id: v1,
        name: 'v1',
        kind: 'named',
        title: 'Bakery plan',
        revision: expect.any(Number),
        progress: { finalized: 0, total: plan.progress.total },
        created_by: expect.objectContaining({ username: owner.username }),
        created_at: expect.any(String),
      },
    ]);
    const table = await planwright(owner, ['versions', 'list', plan.uuid]);
    expect(table.stdout).toMatch(
      new RegExp(`^ID +NAME +BY +PROGRESS +KEPT\\n(.*\\n)*${v1} {2}v1 +owner +0/`),
    );
    expect(await planwright(owner, ['versions', 'create', plan.uuid, '--name', 'V1'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'planwright: the server answered 409 Conflict: This document already has a version named “V1”.\n',
    });

    // Shown by name: its header, then the plan's old text as Markdown.
    const shown = await planwright(owner, ['versions', 'show', plan.uuid, 'v1']);
    expect(shown).toMatchObject({ code: 0, stderr: '' });
    expect(shown.stdout).toMatch(/^Version: {3}v1\nID: {8}[0-9a-f-]{36}\nKind: {6}named\n/);
    expect(shown.stdout).toContain('\nBy:        owner\n');
    expect(shown.stdout).toContain('\nBread for the whole town.\n');
    expect(shown.stdout).not.toContain('Cakes only.');

    // Someone the plan is shared with as a viewer reads the versions, but may not restore one.
    const shared = await planwright(owner, [
      'share',
      plan.uuid,
      '--email',
      investor.email,
      '--role',
      'viewer',
      '--json',
    ]);
    expect(shared).toMatchObject({ code: 0, stderr: '' });
    const { id: invitation } = JSON.parse(shared.stdout) as { id: string };
    expect(await planwright(investor, ['invitations', 'accept', invitation])).toMatchObject({ code: 0 });
    expect((await planwright(investor, ['versions', 'show', plan.uuid, 'v1'])).stdout).toContain(
      'Bread for the whole town.',
    );
    expect(await planwright(investor, ['versions', 'restore', plan.uuid, 'v1'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'planwright: Your role on this document does not let you change it.\n',
    });
    expect(await firstParagraph(owner, plan.uuid)).toBe('Cakes only.');

    // Restored: the old text is back, and the line ends with the command that undoes it.
    const restored = await planwright(owner, ['versions', 'restore', plan.uuid, 'v1']);
    expect(restored).toMatchObject({ code: 0, stderr: '' });
    const undo = new RegExp(
      `^Restored “v1” in “Bakery plan”: revision \\d+\\. To undo, restore the version kept just before: planwright (versions restore ${plan.uuid} [0-9a-f-]{36})\\n$`,
    ).exec(restored.stdout)?.[1];
    expect(undo, restored.stdout).toBeDefined();
    expect(await firstParagraph(owner, plan.uuid)).toBe('Bread for the whole town.');
    const before = (await owner.client.versions.list(plan.uuid)).items.find(
      (version) => version.kind === 'before_restore',
    );
    expect(undo).toBe(`versions restore ${plan.uuid} ${before?.id}`);

    // The printed command brings back what the plan held before the restore.
    const undone = await planwright(owner, (undo ?? '').split(' '));
    expect(undone).toMatchObject({ code: 0, stderr: '' });
    expect(undone.stdout).toMatch(
      /^Restored “\(before restore\) \d{4}-\d\d-\d\d \d\d:\d\d UTC” in “Bakery plan”/,
    );
    expect(await firstParagraph(owner, plan.uuid)).toBe('Cakes only.');

    // A version the plan does not have, and a plan the caller does not see, say which is missing.
    expect(await planwright(owner, ['versions', 'show', plan.uuid, 'v9'])).toEqual({
      code: 1,
      stdout: '',
      stderr: `planwright: Version not found: “v9”.\nRun \`planwright versions list ${plan.uuid}\` to see the document's versions.\n`,
    });
    const other = await investor.client.documents.create({ title: 'Investor notes' });
    expect(await planwright(owner, ['versions', 'list', other.uuid])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'planwright: Document not found.\nRun `planwright documents list` to see your documents.\n',
    });
  });

  it('`planwright diff --from v1` prints what changed since v1, removals and additions marked word by word', async () => {
    const owner = await createAccount('differ');
    const plan = await owner.client.documents.create({ title: 'Bakery plan' });
    await writeFirstParagraph(owner, plan.uuid, 'Bread for the whole town.');
    expect(await planwright(owner, ['versions', 'create', plan.uuid, '--name', 'v1'])).toMatchObject({
      code: 0,
      stderr: '',
    });
    // The plan changes through the SDK, as a script writes it.
    await writeFirstParagraph(owner, plan.uuid, 'Cakes for the whole county.');

    const diff = await planwright(owner, ['diff', plan.uuid, '--from', 'v1']);
    expect(diff).toMatchObject({ code: 0, stderr: '' });
    expect(diff.stdout).toMatch(
      /^# Changes from “v1” to now\n\nSubsections: 1 changed, 0 added, 0 removed, \d+ unchanged\.\n/,
    );
    expect(diff.stdout).toContain('\n{--Bread--}{++Cakes++} for the whole {--town--}{++county++}.\n');

    // The same comparison as data, and a version the plan does not have.
    const json = await planwright(owner, [
      'diff',
      plan.uuid,
      '--from',
      'V1',
      '--to',
      'now',
      '--format',
      'json',
    ]);
    expect(json).toMatchObject({ code: 0, stderr: '' });
    const data = JSON.parse(json.stdout) as VersionDiff;
    expect(data).toMatchObject({ from: { name: 'v1', kind: 'named' }, to: { now: true } });
    expect(data.summary).toMatchObject({ changed: 1, added: 0, removed: 0 });
    // For an advisor in Word: the same comparison with tracked changes, written to a file.
    const docxPath = join(scratch, 'changes.docx');
    const docx = await planwright(owner, [
      'diff',
      plan.uuid,
      '--from',
      'v1',
      '--format',
      'docx',
      '-o',
      docxPath,
    ]);
    expect(docx).toMatchObject({ code: 0, stderr: '' });
    const xml = new TextDecoder().decode(unzipSync(readFileSync(docxPath))['word/document.xml']);
    expect(xml).toMatch(/<w:del [^>]*>.*?<w:delText[^>]*>Bread<\/w:delText>/s);
    expect(xml).toMatch(/<w:ins [^>]*>.*?<w:t[^>]*>Cakes<\/w:t>/s);
    expect(await planwright(owner, ['diff', plan.uuid, '--from', 'v1', '--to', 'v9'])).toEqual({
      code: 1,
      stdout: '',
      stderr: `planwright: Version not found: “v9”.\nRun \`planwright versions list ${plan.uuid}\` to see the document's versions.\n`,
    });
  });
});
