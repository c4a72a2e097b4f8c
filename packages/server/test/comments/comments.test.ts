import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MENTION_DIGEST_WINDOW_MS, MentionDigests } from '../../src/comments/mention-digests.js';
import { mentionedUsernames } from '../../src/comments/mentions.js';
import { MENTION_RATE_LIMIT } from '../../src/routes/comment-routes.js';
import { capturedMail } from '../support/captured-mail.js';
import { createSignedInUser, type SignedInUser } from '../support/signed-in-user.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { call, createDocument, hostileStrings } from '../support/workspace-calls.js';

// Comments on a plan (docs/teams.md "Comments"): threads, replies, one's own edits, resolving, roles, bad input,
// and mention e-mails with their digest on an injected clock.

let t: TestApp;
let clock = new Date('2026-11-29T12:00:00.000Z');
const now = () => clock;
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};
const { mailer, sent } = capturedMail();
let counter = 0;

async function person(name: string): Promise<SignedInUser> {
  return createSignedInUser(t, { email: `${name}-${++counter}@example.com`, firstName: name }, now);
}

const usernameOf = (who: SignedInUser) => who.user.email.split('@')[0] ?? '';
const mailsTo = (who: SignedInUser) => sent.filter((mail) => mail.to === who.user.email);

/** A plan of `owner` shared with `members` as the roles given, and its first subsection. */
async function sharedPlan(
  owner: SignedInUser,
  members: Array<[SignedInUser, 'viewer' | 'commenter' | 'editor']>,
) {
  const doc = await createDocument(t, owner, { title: 'Bakery plan' });
  for (const [member, role] of members) {
    await t.storage.documentMembers.put({
      documentId: doc.uuid,
      userId: member.user.id,
      role,
      addedBy: owner.user.id,
      at: now(),
    });
  }
  const subsection = doc.sections[0].subsections[0].uuid as string;
  return { doc, subsection };
}

function startThread(doc: { uuid: string }, as: SignedInUser, body: Record<string, unknown>) {
  return call(t, 'POST', `documents/${doc.uuid}/comments/`, { as, body });
}

beforeAll(async () => {
  t = await createTestApp({}, { now, mailer });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  advance(MENTION_RATE_LIMIT.windowMs);
});

describe('comments', () => {
  it('CM1 a commenter starts a thread on a subsection and a range; everyone on the plan reads it; replies follow in order', async () => {
    const owner = await person('owner');
    const [advisor, investor] = [await person('advisor'), await person('investor')];
    const { doc, subsection } = await sharedPlan(owner, [
      [advisor, 'commenter'],
      [investor, 'viewer'],
    ]);
    const anchor = Buffer.from([1, 2, 3, 4]).toString('base64');
    const res = await startThread(doc, advisor, {
      subsection,
      body: '  Is the market size sourced?  ',
      anchor,
      quote: 'a market of 3 billion',
    });
    expect(res.statusCode, res.body).toBe(201);
    const thread = res.json();
    expect(thread).toMatchObject({
      subsection_uuid: subsection,
      anchor,
      quote: 'a market of 3 billion',
      status: 'open',
      created_by: { id: advisor.user.id, username: usernameOf(advisor), first_name: 'advisor' },
      messages: [{ body: 'Is the market size sourced?', deleted: false, edited_at: null }],
    });
    expect(JSON.stringify(thread)).not.toContain('@example.com');
    const reply = await call(t, 'POST', `documents/${doc.uuid}/comments/${thread.id}/messages/`, {
      as: owner,
      body: { body: 'Yes: the 2025 census.' },
    });
    expect(reply.statusCode).toBe(201);
    const read = await call(t, 'GET', `documents/${doc.uuid}/comments/`, { as: investor });
    expect(read.json().data[0].messages.map((m: { body: string }) => m.body)).toEqual([
      'Is the market size sourced?',
      'Yes: the 2025 census.',
    ]);
    // The investor reads but does not write.
    const refused = await startThread(doc, investor, { subsection, body: 'Hm.' });
    expect(refused.json()).toEqual({
      code: 'not_permitted',
      detail: 'Viewers of this document cannot comment on it.',
    });
    const stranger = await person('stranger');
    expect((await call(t, 'GET', `documents/${doc.uuid}/comments/`, { as: stranger })).statusCode).toBe(404);
    const feed = await call(t, 'GET', `activities/activities/?target=document&object_id=${doc.uuid}`, {
      as: owner,
    });
    expect(JSON.stringify(feed.json())).toContain('commented on the document');
  });

  it('CM2 resolving and reopening, filters, editing and deleting one’s own messages only; an emptied thread goes', async () => {
    const owner = await person('owner');
    const editor = await person('editor');
    const { doc, subsection } = await sharedPlan(owner, [[editor, 'editor']]);
    const first = (await startThread(doc, editor, { subsection, body: 'First.' })).json();
    const second = (await startThread(doc, owner, { subsection, body: 'Second.' })).json();
    const resolved = await call(t, 'PATCH', `documents/${doc.uuid}/comments/${first.id}/`, {
      as: owner,
      body: { status: 'resolved' },
    });
    expect(resolved.json()).toMatchObject({ status: 'resolved', resolved_by: { id: owner.user.id } });
    const list = async (query: string) =>
      (await call(t, 'GET', `documents/${doc.uuid}/comments/${query}`, { as: editor }))
        .json()
        .data.map((thread: { id: string }) => thread.id);
    expect(await list('?status=open')).toEqual([second.id]);
    expect(await list('?status=resolved')).toEqual([first.id]);
    expect(await list(`?subsection=${subsection}`)).toEqual([first.id, second.id]);
    expect(
      (await call(t, 'GET', `documents/${doc.uuid}/comments/?status=maybe`, { as: editor })).statusCode,
    ).toBe(400);
    const reopened = await call(t, 'PATCH', `documents/${doc.uuid}/comments/${first.id}/`, {
      as: editor,
      body: { status: 'open' },
    });
    expect(reopened.json()).toMatchObject({ status: 'open', resolved_by: null });

    const messageId = first.messages[0].id;
    const path = `documents/${doc.uuid}/comments/${first.id}/messages/${messageId}/`;
    const notYours = await call(t, 'PATCH', path, { as: owner, body: { body: 'Owner edits.' } });
    expect(notYours.json()).toEqual({
      code: 'not_permitted',
      detail: 'You can only change or delete your own comments.',
    });
    expect((await call(t, 'DELETE', path, { as: owner })).json().code).toBe('not_permitted');
    const edited = await call(t, 'PATCH', path, { as: editor, body: { body: 'First, edited.' } });
    expect(edited.json().messages[0]).toMatchObject({
      body: 'First, edited.',
      edited_at: clock.toISOString(),
    });
    expect((await call(t, 'DELETE', path, { as: editor })).statusCode).toBe(204);
    expect(await list('')).toEqual([second.id]);
    expect((await call(t, 'DELETE', path, { as: editor })).statusCode).toBe(404);

    // A deleted message in the middle keeps its place, without its words.
    const reply = await call(t, 'POST', `documents/${doc.uuid}/comments/${second.id}/messages/`, {
      as: editor,
      body: { body: 'A reply.' },
    });
    const replyId = reply.json().messages[1].id;
    await call(t, 'POST', `documents/${doc.uuid}/comments/${second.id}/messages/`, {
      as: owner,
      body: { body: 'Third.' },
    });
    await call(t, 'DELETE', `documents/${doc.uuid}/comments/${second.id}/messages/${replyId}/`, {
      as: editor,
    });
    const [kept] = (await call(t, 'GET', `documents/${doc.uuid}/comments/`, { as: owner })).json().data;
    expect(kept.messages.map((m: { body: string; deleted: boolean }) => [m.body, m.deleted])).toEqual([
      ['Second.', false],
      ['', true],
      ['Third.', false],
    ]);
  });

  it('CM3 bad comments get clear answers and save nothing: too long, empty, control characters, a foreign subsection, a stranger mentioned, a bad anchor', async () => {
    const owner = await person('owner');
    const { doc, subsection } = await sharedPlan(owner, []);
    const other = await createDocument(t, owner);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ subsection, body: 'x'.repeat(100_000) }, 'body'],
      [{ subsection, body: '   ' }, 'body'],
      [{ subsection, body: 'bell\u0007' }, 'body'],
      [{ subsection, body: 42 }, 'body'],
      [{ subsection: other.sections[0].subsections[0].uuid, body: 'Elsewhere.' }, 'subsection'],
      [{ subsection: 'not-a-uuid', body: 'Nowhere.' }, 'subsection'],
      [{ body: 'No place.' }, 'subsection'],
      [{ subsection, body: 'Hi @nobody-here, see this.' }, 'body'],
      [{ subsection, body: 'Fine.', anchor: 'not base64!' }, 'anchor'],
      [{ subsection, body: 'Fine.', anchor: 'A'.repeat(8000) }, 'anchor'],
    ];
    for (const [body, param] of cases) {
      const res = await startThread(doc, owner, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json().errors[0].param, res.body).toBe(param);
    }
    const stranger = await startThread(doc, owner, { subsection, body: 'Hi @nobody-here, see this.' });
    expect(stranger.json().errors[0]).toEqual({
      param: 'body',
      code: 'unknown_mention',
      message: '@nobody-here is not on this plan: mention someone it is shared with.',
    });
    expect((await call(t, 'GET', `documents/${doc.uuid}/comments/`, { as: owner })).json().data).toEqual([]);
    // Any script, emoji, markup and the rest of the hostile strings are kept exactly (trimmed).
    for (const text of hostileStrings
      .filter((s: string) => s.trim() !== '' && !/[\p{Cc}\p{Cs}]/u.test(s.replace(/[\t\n\r]/g, '')))
      .slice(0, 40)) {
      if (/(^|\s)@\S/u.test(text)) continue;
      const res = await startThread(doc, owner, { subsection, body: text });
      expect(res.statusCode, JSON.stringify(text)).toBe(201);
      expect(res.json().messages[0].body).toBe(text.trim());
    }
  });

  it('CM4 a mention e-mails the person at once; more within 10 minutes wait for one digest; mentions are rate limited', async () => {
    const owner = await person('owner');
    const mentor = await person('mentor');
    const { doc, subsection } = await sharedPlan(owner, [[mentor, 'commenter']]);
    const first = await startThread(doc, owner, {
      subsection,
      body: `@${usernameOf(mentor)} could you check the pricing?`,
    });
    expect(first.statusCode, first.body).toBe(201);
    expect(mailsTo(mentor)).toHaveLength(1);
    const [mail] = mailsTo(mentor);
    expect(mail?.subject).toBe('owner mentioned you in “Bakery plan”');
    expect(mail?.text).toContain(`could you check the pricing?`);
    expect(mail?.text).toContain(`/dashboard/documents/${doc.uuid}/edit?comment=${first.json().id}`);
    // Mentioning oneself sends nothing; an unrelated `@` in prose is no mention.
    expect(mentionedUsernames('mail me @ noon, or at a@b.c')).toEqual([]);

    advance(60_000);
    await call(t, 'POST', `documents/${doc.uuid}/comments/${first.json().id}/messages/`, {
      as: owner,
      body: { body: `And the margins, @${usernameOf(mentor)}.` },
    });
    advance(60_000);
    await startThread(doc, owner, { subsection, body: `@${usernameOf(mentor)} one more.` });
    expect(mailsTo(mentor)).toHaveLength(1);

    // The sweep sends the digest once the 10 minutes are over: one e-mail, both mentions.
    const digests = new MentionDigests({
      storage: t.storage,
      mailer,
      publicUrl: t.config.publicUrl,
      now,
      log: t.app.log,
    });
    expect(await digests.flushDue()).toBe(0);
    advance(MENTION_DIGEST_WINDOW_MS);
    expect(await digests.flushDue()).toBe(1);
    expect(mailsTo(mentor)).toHaveLength(2);
    expect(mailsTo(mentor)[1]?.subject).toBe('2 mentions of you in “Bakery plan”');
    expect(mailsTo(mentor)[1]?.text).toContain('And the margins');
    expect(mailsTo(mentor)[1]?.text).toContain('one more.');
    expect(await digests.flushDue()).toBe(0);
    expect(mailsTo(mentor)).toHaveLength(2);

    // An edit that keeps a mention does not mention again.
    advance(MENTION_DIGEST_WINDOW_MS);
    const thread = first.json();
    await call(t, 'PATCH', `documents/${doc.uuid}/comments/${thread.id}/messages/${thread.messages[0].id}/`, {
      as: owner,
      body: { body: `@${usernameOf(mentor)} could you check the pricing, please?` },
    });
    expect(mailsTo(mentor)).toHaveLength(2);

    // The author's mentions are limited; a refused comment is not saved.
    advance(MENTION_RATE_LIMIT.windowMs);
    const answers: number[] = [];
    for (let i = 0; i <= MENTION_RATE_LIMIT.limit; i++) {
      answers.push(
        (await startThread(doc, owner, { subsection, body: `@${usernameOf(mentor)} ${i}` })).statusCode,
      );
    }
    expect(answers.at(-1)).toBe(429);
    expect(answers.slice(0, -1).every((status) => status === 201)).toBe(true);
    const threads = (await call(t, 'GET', `documents/${doc.uuid}/comments/`, { as: owner })).json().data;
    expect(
      threads.some((th: { messages: Array<{ body: string }> }) =>
        th.messages[0]?.body.endsWith(` ${MENTION_RATE_LIMIT.limit}`),
      ),
    ).toBe(false);
  });
});
