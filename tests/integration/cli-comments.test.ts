import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommentThread } from '@planwright/sdk';
import { readOutbox } from '@planwright/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliAccount, cliAccounts } from '../support/cli-accounts.js';
import { ensureCliBuilt } from '../support/cli-binary.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * `planwright comment` and `planwright comments` as a script runs them: the built bin as a child process with
 * pipes, signed in with `planwright login`, against the real server (docs/teams.md "Comments"). The plan is
 * shared with `planwright share` and `planwright invitations accept`; the mention's e-mail is read from the
 * server's outbox.
 */

/** A subsection of the default Business Plan blueprint (its "Executive Summary"), found by title. */
const SUBSECTION_TITLE = 'Market and Traction';

let server: TestServer;
let scratch: string;

const { planwright, createAccount } = cliAccounts(() => ({ server, scratch }), 'comments.example');

/** Shares `uuid` with `member` as `role` the way a script does: `planwright share`, then accept the id. */
async function share(owner: CliAccount, uuid: string, member: CliAccount, role: 'viewer' | 'commenter') {
  const shared = await planwright(owner, ['share', uuid, '--email', member.email, '--role', role, '--json']);
  expect(shared).toMatchObject({ code: 0, stderr: '' });
  const { id } = JSON.parse(shared.stdout) as { id: string };
  expect(await planwright(member, ['invitations', 'accept', id])).toMatchObject({ code: 0, stderr: '' });
}

beforeAll(async () => {
  ensureCliBuilt();
  server = await startTestServer();
  scratch = mkdtempSync(join(tmpdir(), 'planwright-cli-comments-'));
});

afterAll(async () => {
  await server?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('planwright comment and comments against the real server', () => {
  it('an advisor comments with a mention; the owner reads it, is e-mailed a link to it; a viewer may not comment', async () => {
    const [owner, advisor, investor, stranger] = await Promise.all([
      createAccount('owner'),
      createAccount('advisor'),
      createAccount('investor'),
      createAccount('stranger'),
    ]);
    const plan = await owner.client.documents.create({ title: 'Bakery plan' });
    const subsection = plan.sections
      .flatMap((section) => section.subsections)
      .find((candidate) => candidate.title === SUBSECTION_TITLE);
    expect(subsection, `the default blueprint has "${SUBSECTION_TITLE}"`).toBeDefined();
    await share(owner, plan.uuid, advisor, 'commenter');
    await share(owner, plan.uuid, investor, 'viewer');

    // The advisor comments on the subsection by its title, mentioning the owner.
    const body = `@${owner.username} is this sourced?`;
    const commented = await planwright(advisor, [
      'comment',
      plan.uuid,
      '--subsection',
      SUBSECTION_TITLE.toLowerCase(),
      '--message',
      body,
    ]);
    expect(commented).toMatchObject({ code: 0, stderr: '' });
    const threadId = /^Commented on “Market and Traction” \(([0-9a-f-]{36})\)\.\n$/.exec(
      commented.stdout,
    )?.[1];
    expect(threadId, commented.stdout).toBeDefined();

    // The owner reads it, as JSON and as text.
    const listed = await planwright(owner, ['comments', plan.uuid, '--json']);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(listed.stdout) as CommentThread[]).toEqual([
      {
        id: threadId,
        subsection_uuid: subsection?.uuid,
        anchor: null,
        quote: '',
        status: 'open',
        created_by: expect.objectContaining({ username: advisor.username }),
        created_at: expect.any(String),
        updated_at: expect.any(String),
        resolved_at: null,
        resolved_by: null,
        messages: [
          {
            id: expect.any(String),
            author: expect.objectContaining({ username: advisor.username }),
            body,
            created_at: expect.any(String),
            edited_at: null,
            deleted: false,
          },
        ],
      },
    ]);
    const open = await planwright(owner, ['comments', plan.uuid, '--open']);
    expect(open).toMatchObject({ code: 0, stderr: '' });
    expect(open.stdout).toMatch(
      /^Market and Traction · open\n {2}advisor · \d{4}-\d\d-\d\d \d\d:\d\d UTC\n {4}@owner is this sourced\?\n$/,
    );

    // The owner was e-mailed a link to the thread.
    const mails = (await readOutbox(server.outboxDir)).filter((mail) => mail.to === owner.email);
    const targets = mails
      .flatMap((mail) => mail.links)
      .map((link) => new URL(link).pathname + new URL(link).search);
    expect(targets).toContain(`/dashboard/documents/${plan.uuid}/edit?comment=${threadId}`);

    // A viewer may read but not comment; the refusal is the server's reason, not "not found".
    expect(
      await planwright(investor, [
        'comment',
        plan.uuid,
        '--subsection',
        SUBSECTION_TITLE,
        '--message',
        'Me too.',
      ]),
    ).toEqual({
      code: 1,
      stdout: '',
      stderr: 'planwright: Viewers of this document cannot comment on it.\n',
    });
    expect((await planwright(investor, ['comments', plan.uuid])).stdout).toContain(`    ${body}\n`);

    // Mentioning someone the plan is not shared with is refused, and nothing is saved.
    const mention = await planwright(advisor, [
      'comment',
      plan.uuid,
      '--subsection',
      subsection?.uuid ?? '',
      '--message',
      `@${stranger.username} what do you think?`,
    ]);
    expect(mention).toEqual({
      code: 1,
      stdout: '',
      stderr: `planwright: the server answered 400 Bad Request: Invalid input: body (body: @${stranger.username} is not on this plan: mention someone it is shared with.)\n`,
    });
    expect(await owner.client.comments.list(plan.uuid)).toHaveLength(1);

    // Bad input is refused before the server is asked; a plan the caller cannot see is "not found".
    const blank = await planwright(advisor, [
      'comment',
      plan.uuid,
      '--subsection',
      SUBSECTION_TITLE,
      '--message',
      ' ',
    ]);
    expect(blank).toEqual({
      code: 2,
      stdout: '',
      stderr: 'planwright: --message: Write a comment first\nRun `planwright comment --help` for usage.\n',
    });
    const notFound = {
      code: 1,
      stdout: '',
      stderr: 'planwright: Document not found.\nRun `planwright documents list` to see your documents.\n',
    };
    expect(await planwright(stranger, ['comments', plan.uuid])).toEqual(notFound);
    expect(
      await planwright(stranger, ['comment', plan.uuid, '--subsection', SUBSECTION_TITLE, '--message', 'Hi']),
    ).toEqual(notFound);

    // Resolved, it is no longer open.
    await owner.client.comments.setStatus(plan.uuid, threadId ?? '', 'resolved');
    expect(await planwright(owner, ['comments', plan.uuid, '--open'])).toEqual({
      code: 0,
      stderr: '',
      stdout: 'No open comments.\n',
    });
    expect((await planwright(owner, ['comments', plan.uuid])).stdout).toMatch(
      /^Market and Traction · resolved\n/,
    );
  });
});
