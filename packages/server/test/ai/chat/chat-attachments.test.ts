import { readFileSync } from 'node:fs';
import { outlineOf } from '@planwright/sdk/model';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath } from '../../../../../tests/support/corpus-path.mjs';
import { withAttachments } from '../../../src/ai/chat/chat-attachments.js';
import { multipartBody } from '../../files/multipart.js';
import { chatUrl, openChatSocket, type TestChatSocket } from '../../support/chat-socket.js';
import { createSignedInUser, type SignedInUser } from '../../support/signed-in-user.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { call, createDocument, hostileStrings } from '../../support/workspace-calls.js';

let t: TestApp;
let base: string;
let ann: SignedInUser;
let doc: { uuid: string; content: unknown };
let sectionUuid: string;

beforeAll(async () => {
  t = await createTestApp({ PLANWRIGHT_AI_CALLS_PER_MINUTE: '1000' });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  ann = await createSignedInUser(t, { email: 'ann@example.com' });
  doc = await createDocument(t, ann, { title: 'Attachments plan' });
  const section = outlineOf(doc.content).sections[0];
  if (!section) throw new Error('no section');
  sectionUuid = section.uuid;
  // Notes of the user's own: the offline assistant proposes edits built from them only.
  const tree = structuredClone(doc.content) as {
    content: Array<{ content: Array<{ type: string; content?: unknown[] }> }>;
  };
  tree.content[0]?.content
    .find((node) => node.type === 'subsection')
    ?.content?.push({
      type: 'paragraph',
      content: [{ type: 'text', text: 'Bakery in Berlin. Three staff.' }],
    });
  const saved = await call(t, 'PATCH', `documents/${doc.uuid}/`, { as: ann, body: { content: tree } });
  if (saved.statusCode !== 200) throw new Error(saved.body);
  doc = saved.json();
});
afterAll(async () => {
  await t?.close();
});

async function attach(
  file: { name: string; bytes: Uint8Array | string } | undefined,
  as: SignedInUser | null = ann,
): Promise<LightMyRequestResponse> {
  const body = await multipartBody(file ? { file } : { other: 'x' });
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/apps/ai/attachments/',
    headers: { ...(as ? as.headers : {}), ...body.headers },
    payload: body.payload,
  });
}

describe('POST apps/ai/attachments/ (CH16)', () => {
  it('CH16 .md, .markdown and .txt are read as UTF-8 with the BOM stripped', async () => {
    const md = await attach({ name: 'notes.md', bytes: '\uFEFF# Notes\n\nCafé ☕' });
    expect(md.statusCode, md.body).toBe(200);
    expect(md.json()).toEqual({
      name: 'notes.md',
      format: 'md',
      content: '# Notes\n\nCafé ☕',
      characters: 15,
      truncated: false,
    });
    expect((await attach({ name: 'README.MARKDOWN', bytes: 'x' })).json()).toMatchObject({ format: 'md' });
    expect((await attach({ name: 'a.txt', bytes: 'plain' })).json()).toMatchObject({
      format: 'txt',
      content: 'plain',
    });
  });

  it('CH16 a .docx is read by the import worker and answered as Markdown', async () => {
    const bytes = readFileSync(corpusPath('docx/pandoc-block_quotes.docx'));
    const res = await attach({ name: 'quotes.docx', bytes });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { format: string; content: string; characters: number };
    expect(body.format).toBe('docx');
    expect(body.content).toMatch(/^> /m);
    expect(body.characters).toBe(body.content.length);
  });

  it('CH16 text is capped at 100,000 characters without splitting a surrogate pair', async () => {
    const res = await attach({ name: 'long.txt', bytes: `${'a'.repeat(99_999)}😀${'b'.repeat(10)}` });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { content: string; characters: number; truncated: boolean };
    expect(body).toMatchObject({ characters: 99_999, truncated: true });
    expect(body.content).toBe('a'.repeat(99_999));
  });

  it('CH16 refusals: other types, unreadable text, NUL bytes, empty files, broken .docx, 6 MB, anonymous', async () => {
    const other = await attach({ name: 'plan.pdf', bytes: '%PDF' });
    expect(other.statusCode).toBe(400);
    expect(other.json().detail).toBe('Only .md, .txt and .docx files can be attached.');
    expect((await attach({ name: 'no-extension', bytes: 'x' })).statusCode).toBe(400);
    for (const bytes of [new Uint8Array([0x66, 0xff, 0xfe, 0x80]), 'a\u0000b']) {
      const bad = await attach({ name: 'bad.txt', bytes });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().detail).toBe('This file is not readable text.');
    }
    const empty = await attach({ name: 'empty.md', bytes: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().detail).toBe('The file is empty.');
    const notZip = await attach({ name: 'fake.docx', bytes: 'this is not a zip file' });
    expect(notZip.statusCode).toBeGreaterThanOrEqual(400);
    expect(notZip.statusCode).toBeLessThan(500);
    expect(typeof notZip.json().detail).toBe('string');
    const huge = await attach({ name: 'huge.txt', bytes: new Uint8Array(6 * 1024 * 1024).fill(97) });
    expect(huge.statusCode).toBe(413);
    expect((await attach(undefined)).statusCode).toBe(400);
    expect((await attach({ name: 'a.md', bytes: 'x' }, null)).statusCode).toBe(401);
    const notMultipart = await call(t, 'POST', 'apps/ai/attachments/', { as: ann, body: { file: 'x' } });
    expect(notMultipart.statusCode).toBe(400);
  });

  it('CH16 hostile names and texts never give a 5xx; long names are cut to 255 keeping the extension', async () => {
    const text = hostileStrings.join('\n');
    const res = await attach({ name: 'hostile.md', bytes: text });
    expect(res.statusCode).toBe(200);
    expect(res.json().content).toBe(text.replace(/^\uFEFF/, ''));
    const long = await attach({ name: `${'n'.repeat(400)}.md`, bytes: 'x' });
    expect(long.json().name).toBe(`${'n'.repeat(252)}.md`);
    for (const name of hostileStrings.slice(0, 60)) {
      const answer = await attach({ name: `${name}.txt`, bytes: 'x' });
      expect(answer.statusCode).toBeLessThan(500);
    }
  });
});

async function open(): Promise<TestChatSocket> {
  const socket = await openChatSocket(chatUrl(base, { documentId: doc.uuid, sectionUuid }, ann.token));
  await socket.next((frame) => frame.type === 'authenticated');
  return socket;
}

describe('message attachments over the chat socket (CH13)', () => {
  it('CH13 attachments are stored with the message; history names them without their text; the prompt has them', async () => {
    const socket = await open();
    const from = socket.frames.length;
    socket.send({
      type: 'message',
      message: 'Use my notes',
      client_id: 'att-1',
      attachments: [{ name: 'notes "v2".md', content: 'Bread at dawn.' }],
    });
    const human = await socket.next((frame) => frame.type === 'human', from);
    await socket.next((frame) => frame.type === 'end_of_response', from);
    const chatId = String(human.chat_id);
    const [stored] = await t.storage.chats.messagesOf(chatId, 1_000);
    expect(stored?.metadata).toMatchObject({
      attachments: [{ name: 'notes "v2".md', content: 'Bread at dawn.', characters: 14 }],
    });

    const at = socket.frames.length;
    socket.send({ type: 'history', content: chatId });
    const history = await socket.next((frame) => frame.type === 'history_response', at);
    const [user] = history.messages as Array<Record<string, unknown>>;
    expect(user?.attachments).toEqual([{ name: 'notes "v2".md', characters: 14 }]);
    expect(JSON.stringify(user)).not.toContain('Bread at dawn.');

    const context = await call(
      t,
      'GET',
      `documents/${doc.uuid}/ai/context/?section=${sectionUuid}&chat=${chatId}&message=Next`,
      { as: ann },
    );
    expect(context.statusCode).toBe(200);
    expect(context.json().messages[0]).toEqual({
      role: 'user',
      content: 'Use my notes\n\n<attachment name="notes &quot;v2&quot;.md">\nBread at dawn.\n</attachment>',
    });
    socket.close();
  });

  it('CH13 over the limits: an invalid_message error and nothing stored; the socket stays usable', async () => {
    const socket = await open();
    const before = await t.storage.chats.countMessages(
      String((await socket.next((frame) => frame.type === 'authenticated')).chat_id),
    );
    const file = { name: 'a.md', content: 'a' };
    const refused = [
      [file, file, file, file],
      [{ name: 'a.md', content: 'x'.repeat(100_001) }],
      [{ name: 'n'.repeat(256), content: 'x' }],
      [{ name: '', content: 'x' }],
      'not a list',
      [{ name: 'a.md' }],
    ];
    for (const [i, attachments] of refused.entries()) {
      const from = socket.frames.length;
      socket.send({ type: 'message', message: 'Hi', client_id: `bad-${i}`, attachments });
      expect(await socket.next((frame) => frame.type === 'error', from)).toMatchObject({
        code: 'invalid_message',
      });
    }
    const chatId = String(socket.frames.find((frame) => frame.type === 'authenticated')?.chat_id);
    expect(await t.storage.chats.countMessages(chatId)).toBe(before);
    // Three attachments at their limit fit in one frame (a 256 KiB frame limit would refuse them), and a
    // run of one character that long is answered at once (CX15).
    const from = socket.frames.length;
    const big = 'é'.repeat(100_000);
    socket.send({
      type: 'message',
      message: 'Big',
      client_id: 'big-1',
      attachments: [1, 2, 3].map((n) => ({ name: `${n}.md`, content: big })),
    });
    await socket.next((frame) => frame.type === 'end_of_response', from);
    expect(socket.frames.slice(from).some((frame) => frame.type === 'error')).toBe(false);
    socket.close();
  });

  it('CH13 the prompt form escapes the name so it cannot close its tag', () => {
    expect(withAttachments('m', [{ name: 'a"><x', content: 'c' }])).toBe(
      'm\n\n<attachment name="a&quot;&gt;&lt;x">\nc\n</attachment>',
    );
    expect(withAttachments('m', [])).toBe('m');
  });
});

describe('decisions after a rejection (CH15)', () => {
  it('CH15 a rejected proposal can be accepted later; an accepted one stays accepted', async () => {
    const socket = await open();
    const from = socket.frames.length;
    socket.send({ type: 'message', message: 'Turn these notes into bullet points', client_id: 'd-1' });
    const proposal = await socket.next((frame) => frame.type === 'tool_proposal', from);
    expect(proposal).toMatchObject({ status: 'pending', message_id: expect.any(String) });
    await socket.next((frame) => frame.type === 'end_of_response', from);
    const decide = async (action: 'accept' | 'reject') => {
      const at = socket.frames.length;
      socket.send({ type: 'tool_approval', tool_id: proposal.tool_id, action });
      return (await socket.next((frame) => frame.type === 'tool_complete', at)).status;
    };
    expect(await decide('reject')).toBe('rejected');
    expect(await decide('reject')).toBe('rejected');
    expect(await decide('accept')).toBe('accepted');
    expect(await decide('reject')).toBe('accepted');
    socket.close();
  });
});
