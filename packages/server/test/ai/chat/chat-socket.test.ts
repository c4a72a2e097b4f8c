import { outlineOf } from '@planwright/sdk/model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type OpenAiStreamServer,
  startOpenAiStreamServer,
} from '../../../../../tests/support/openai-stream-server.mjs';
import { OFFLINE_DRAFT_NOTICE } from '../../../src/ai/providers/offline-provider.js';
import { chatUrl, type Frame, openChatSocket, type TestChatSocket } from '../../support/chat-socket.js';
import { createSignedInUser, type SignedInUser } from '../../support/signed-in-user.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { call, createDocument, hostileStrings } from '../../support/workspace-calls.js';

let t: TestApp;
let base: string;
let alice: SignedInUser;
let bob: SignedInUser;
let doc: { uuid: string; content: unknown };
let sectionUuid: string;
let subsectionUuid: string;

beforeAll(async () => {
  t = await createTestApp({ PLANWRIGHT_AI_CALLS_PER_MINUTE: '1000' });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  alice = await createSignedInUser(t, { email: 'alice@example.com' });
  bob = await createSignedInUser(t, { email: 'bob@example.com' });
  doc = await createDocument(t, alice, { title: 'Bakery plan' });
  const outline = outlineOf(doc.content);
  const section = outline.sections[0];
  if (!section?.subsections[0]) throw new Error('the default blueprint has no subsection');
  sectionUuid = section.uuid;
  subsectionUuid = section.subsections[0].uuid;
  // The user's notes: what the offline assistant's edits are built from (it never proposes text of its own).
  const tree = structuredClone(doc.content) as {
    content: Array<{ content: Array<{ type: string; content?: unknown[] }> }>;
  };
  const subsection = tree.content[0]?.content.find((node) => node.type === 'subsection');
  subsection?.content?.push({
    type: 'paragraph',
    content: [{ type: 'text', text: 'Bakery in Berlin. Three staff. Opening in May 2025.' }],
  });
  const saved = await call(t, 'PATCH', `documents/${doc.uuid}/`, { as: alice, body: { content: tree } });
  if (saved.statusCode !== 200) throw new Error(saved.body);
  doc = saved.json();
});

afterAll(async () => {
  await t?.close();
});

function subsectionPath() {
  return { documentId: doc.uuid, sectionUuid, subsectionUuid };
}

/** Sends a message and waits for its `end_of_response`; answers the frames of that turn. */
async function ask(socket: TestChatSocket, message: string, clientId: string): Promise<Frame[]> {
  const from = socket.frames.length;
  socket.send({
    type: 'message',
    message,
    client_id: clientId,
    options: { web_access: 'off', research: 'off' },
  });
  await socket.next((frame) => frame.type === 'end_of_response', from);
  return socket.frames.slice(from);
}

describe('chat socket: authentication and access (CH1–CH3)', () => {
  it('CH1 an authenticate first frame authenticates; the first answer names the chat and the provider', async () => {
    const socket = await openChatSocket(chatUrl(base, subsectionPath(), alice.token));
    const hello = await socket.next((frame) => frame.type === 'authenticated');
    expect(hello.provider).toMatchObject({ name: 'offline', offline: true });
    expect(hello.chat_id).toBeNull();
    socket.close();
  });

  it('CH2 an authenticate frame does it, then pings are answered; a frame before it closes 4401', async () => {
    const socket = await openChatSocket(chatUrl(base, subsectionPath()));
    socket.send({ type: 'authenticate', token: alice.token });
    await socket.next((frame) => frame.type === 'authenticated');
    socket.send({ type: 'ping', timestamp: 42 });
    expect(await socket.next((frame) => frame.type === 'pong')).toEqual({ type: 'pong', timestamp: 42 });
    socket.close();

    const skipper = await openChatSocket(chatUrl(base, subsectionPath()));
    skipper.send({ type: 'ping', timestamp: 1 });
    expect((await skipper.closed).code).toBe(4401);
  });

  it('CH2 an editor removed from the plan, or made a viewer, is closed out of an open chat at once (4404), before any message', async () => {
    const carol = await createSignedInUser(t, { email: 'removed.editor@example.com' });
    const dave = await createSignedInUser(t, { email: 'demoted.editor@example.com' });
    for (const member of [carol, dave]) {
      const sent = await call(t, 'POST', `documents/${doc.uuid}/invitations/`, {
        as: alice,
        body: { email: member.user.email, role: 'editor' },
      });
      expect(sent.statusCode, sent.body).toBe(201);
      expect(
        (await call(t, 'POST', `invitations/${sent.json().id}/accept/`, { as: member })).statusCode,
      ).toBe(200);
    }
    const [removed, demoted, owner] = await Promise.all(
      [carol, dave, alice].map((who) => openChatSocket(chatUrl(base, subsectionPath(), who.token))),
    );
    for (const socket of [removed, demoted, owner])
      await socket?.next((frame) => frame.type === 'authenticated');
    const gone = await call(t, 'DELETE', `documents/${doc.uuid}/members/${carol.user.id}/`, { as: alice });
    expect(gone.statusCode, gone.body).toBe(204);
    expect((await removed?.closed)?.code).toBe(4404);
    const viewer = await call(t, 'PATCH', `documents/${doc.uuid}/members/${dave.user.id}/`, {
      as: alice,
      body: { role: 'viewer' },
    });
    expect(viewer.statusCode, viewer.body).toBe(200);
    expect((await demoted?.closed)?.code).toBe(4404);
    // The owner's chat is undisturbed: it still answers.
    owner?.send({ type: 'ping', timestamp: 7 });
    expect(await owner?.next((frame) => frame.type === 'pong')).toEqual({ type: 'pong', timestamp: 7 });
    owner?.close();
  });

  it('CH2 a wrong or expired token closes with 4401 and a reason', async () => {
    const socket = await openChatSocket(chatUrl(base, subsectionPath(), 'not-a-token'));
    const closed = await socket.closed;
    expect(closed.code).toBe(4401);
    expect(closed.reason).toMatch(/sign in/i);
  });

  it("CH2 another user's document closes with 4404, exactly like a path naming nothing", async () => {
    const foreign = await openChatSocket(chatUrl(base, subsectionPath(), bob.token));
    const closed = await foreign.closed;
    expect(closed.code).toBe(4404);
    const missing = await openChatSocket(
      chatUrl(base, { documentId: '00000000-0000-4000-8000-000000000000' }, alice.token),
    );
    expect((await missing.closed).code).toBe(4404);
    const badSection = await openChatSocket(
      chatUrl(
        base,
        { documentId: doc.uuid, sectionUuid: '00000000-0000-4000-8000-000000000001' },
        alice.token,
      ),
    );
    expect((await badSection.closed).code).toBe(4404);
    const notUuid = await openChatSocket({
      url: `${base.replace('http', 'ws')}/ws/document/nope/chat/`,
      token: alice.token,
    });
    expect((await notUuid.closed).code).toBe(4404);
  });

  it('CH2 a token in the URL query is refused with 4400 and a reason naming the frame, even a valid one', async () => {
    const { url } = chatUrl(base, subsectionPath());
    for (const query of [
      `token=${alice.token}`,
      'token=',
      `access_token=${alice.token}`,
      `session_key=${alice.token}`,
      `Token=${alice.token}&x=1`,
    ]) {
      const socket = await openChatSocket(`${url}?${query}`);
      // A valid frame after it changes nothing: the socket is closed before it is read.
      socket.send({ type: 'authenticate', token: alice.token });
      const closed = await socket.closed;
      expect(closed, query).toEqual({
        code: 4400,
        reason: 'Tokens in the URL are refused: send {"type":"authenticate","token":…} as the first frame.',
      });
      expect(socket.frames).toEqual([]);
    }
    // Other query parameters are harmless and ignored.
    const plain = await openChatSocket({ url: `${url}?v=2`, token: alice.token });
    await plain.next((frame) => frame.type === 'authenticated');
    plain.close();
  });

  it("CH2 the browser client's session cookie authenticates; an app token as the cookie does not", async () => {
    const carol = await createSignedInUser(t, { email: 'carol@example.com' }, undefined, 'browser');
    const carolDoc = await createDocument(t, carol, { title: 'Cookie plan' });
    const { url } = chatUrl(base, { documentId: carolDoc.uuid });
    const socket = await openChatSocket(url, { cookie: `sessionid=${carol.token}`, origin: base });
    expect(await socket.next((frame) => frame.type === 'authenticated')).toMatchObject({ chat_id: null });
    socket.close();
    // A stale cookie beside a valid token: the authenticate frame decides.
    const stale = await openChatSocket(
      { url: chatUrl(base, subsectionPath()).url, token: alice.token },
      { cookie: 'sessionid=stale-cookie', origin: base },
    );
    await stale.next((frame) => frame.type === 'authenticated');
    stale.close();
    // An app token planted as a cookie is no browser session; with no frame after it, 4401.
    const planted = await openChatSocket(chatUrl(base, subsectionPath()).url, {
      cookie: `sessionid=${alice.token}`,
      origin: base,
    });
    planted.send({ type: 'ping', timestamp: 1 });
    expect((await planted.closed).code).toBe(4401);
  });

  it('CH2 a plain HTTP request to the socket address answers 426 in the house error shape', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/ws/document/${doc.uuid}/chat/` });
    expect(res.statusCode).toBe(426);
    expect(res.json()).toEqual({
      detail: 'This address takes WebSocket connections only.',
      code: 'upgrade_required',
    });
  });

  it('CH3 a socket opened from a foreign Origin closes with 4403', async () => {
    const socket = await openChatSocket(chatUrl(base, subsectionPath(), alice.token), {
      origin: 'https://evil.example',
    });
    expect((await socket.closed).code).toBe(4403);
  });
});

describe('chat socket: a turn with the offline provider (CH4, CH6, CH7, CH9)', () => {
  let chatId: string;
  let toolId: string;

  it('CH4 streams cumulative ai frames labelled offline, proposes the asked-for edit of the user’s notes, ends the response', async () => {
    const socket = await openChatSocket(chatUrl(base, subsectionPath(), alice.token));
    await socket.next((frame) => frame.type === 'authenticated');
    const frames = await ask(socket, 'Turn these notes into bullet points\nplease', 'c-1');
    const human = frames.find((frame) => frame.type === 'human');
    expect(human).toMatchObject({ content: 'Turn these notes into bullet points\nplease', client_id: 'c-1' });
    chatId = String(human?.chat_id);
    const ai = frames.filter((frame) => frame.type === 'ai').map((frame) => String(frame.content));
    expect(ai.length).toBeGreaterThan(2);
    for (let i = 1; i < ai.length; i++) expect(ai[i]?.startsWith(ai[i - 1] ?? '')).toBe(true);
    expect(ai[0]?.startsWith(OFFLINE_DRAFT_NOTICE.slice(0, 10))).toBe(true);
    expect(frames.some((frame) => frame.type === 'tool_generating')).toBe(true);
    const proposal = frames.find((frame) => frame.type === 'tool_proposal');
    // Built from the user's notes only, as partial edits of their own block (AP32).
    expect(proposal).toMatchObject({ tool_name: 'propose_partial_edits' });
    expect(proposal?.payload).toMatchObject({
      edits: [{ mode: 'replace', content: '- Bakery in Berlin\n- Three staff\n- Opening in May 2025' }],
    });
    toolId = String(proposal?.tool_id);
    expect(frames.at(-1)?.type).toBe('end_of_response');
    socket.close();

    const list = await call(t, 'GET', `chats/?target=subsection&object_id=${subsectionUuid}`, { as: alice });
    expect(list.statusCode).toBe(200);
    expect(list.json().data[0]).toMatchObject({ id: chatId, title: 'Turn these notes into bullet points' });
  });

  it('CH9 history answers the stored messages and re-sends the pending proposal, also after a restart', async () => {
    const socket = await openChatSocket(chatUrl(base, subsectionPath(), alice.token));
    const hello = await socket.next((frame) => frame.type === 'authenticated');
    expect(hello.chat_id).toBe(chatId);
    socket.send({ type: 'history', content: '' });
    const history = await socket.next((frame) => frame.type === 'history_response');
    const messages = history.messages as Array<{ role: string; content: string; client_id: string | null }>;
    expect(messages.map((message) => message.role)).toEqual(['user', 'ai']);
    expect(messages[0]?.client_id).toBe('c-1');
    const pending = await socket.next((frame) => frame.type === 'tool_proposal');
    expect(pending.tool_id).toBe(toolId);
    socket.close();
  });

  it('CH6 an approval is recorded once: tool_executing then tool_complete; unknown ids are refused', async () => {
    const socket = await openChatSocket(chatUrl(base, { ...subsectionPath(), chatId }, alice.token));
    await socket.next((frame) => frame.type === 'authenticated');
    socket.send({ type: 'tool_approval', tool_id: toolId, action: 'accept', client_id: 'a-1' });
    const executing = await socket.next((frame) => frame.type === 'tool_executing');
    const complete = await socket.next((frame) => frame.type === 'tool_complete');
    expect(socket.frames.indexOf(executing)).toBeLessThan(socket.frames.indexOf(complete));
    expect(complete).toMatchObject({ tool_id: toolId, status: 'accepted' });
    const from = socket.frames.length;
    socket.send({ type: 'tool_approval', tool_id: toolId, action: 'reject' });
    expect(await socket.next((frame) => frame.type === 'tool_complete', from)).toMatchObject({
      status: 'accepted',
    });
    socket.send({ type: 'tool_approval', tool_id: 'tool_nope', action: 'accept' });
    expect(await socket.next((frame) => frame.type === 'error')).toMatchObject({ code: 'unknown_tool' });
    const [stored] = await t.storage.chats.proposalsOf(chatId);
    expect(stored?.status).toBe('accepted');
    // Accepting is in the plan's activity once, however often it is decided again (docs/teams.md).
    const feed = await call(t, 'GET', 'activities/activities/?level=1', { as: alice });
    expect(
      feed.json().data.filter((entry: { verb: string }) => entry.verb === 'accepted an AI proposal'),
    ).toEqual([expect.objectContaining({ actor_label: expect.any(String), target: 'document' })]);
    // With its provenance: the provider that wrote it.
    const accepted = feed
      .json()
      .data.find((entry: { verb: string }) => entry.verb === 'accepted an AI proposal');
    expect(accepted.message).toMatch(/^accepted an AI proposal written by .+ in the document /);
    // CH14: decided proposals come back with history, with their status and the AI message that made them.
    const from2 = socket.frames.length;
    socket.send({ type: 'history', content: chatId });
    const history = await socket.next((frame) => frame.type === 'history_response', from2);
    const replayed = await socket.next((frame) => frame.type === 'tool_proposal', from2);
    const aiMessage = (history.messages as Array<{ id: string; role: string }>).find((m) => m.role === 'ai');
    expect(replayed).toMatchObject({ tool_id: toolId, status: 'accepted', message_id: aiMessage?.id });
    socket.close();
  });

  it('CH7 a message resent with the same client id is not answered twice', async () => {
    const socket = await openChatSocket(chatUrl(base, { ...subsectionPath(), chatId }, alice.token));
    await socket.next((frame) => frame.type === 'authenticated');
    const before = await t.storage.chats.countMessages(chatId);
    const again = await ask(socket, 'Turn these notes into bullet points\nplease', 'c-1');
    expect(again.map((frame) => frame.type)).toEqual(['end_of_response']);
    expect(await t.storage.chats.countMessages(chatId)).toBe(before);
    socket.close();
  });
});

describe('the context inspector with a chat (CX12, CH6)', () => {
  it('shows the chat history and the recorded decision as the next prompt would carry them', async () => {
    const [chat] = (
      await call(t, 'GET', `chats/?target=subsection&object_id=${subsectionUuid}`, { as: alice })
    ).json().data as Array<{ id: string }>;
    const res = await call(
      t,
      'GET',
      `documents/${doc.uuid}/ai/context/?section=${sectionUuid}&subsection=${subsectionUuid}&chat=${chat?.id}&message=Next`,
      { as: alice },
    );
    expect(res.statusCode).toBe(200);
    const messages = res.json().messages as Array<{ role: string; content?: string; results?: unknown[] }>;
    expect(messages[0]).toMatchObject({
      role: 'user',
      content: 'Turn these notes into bullet points\nplease',
    });
    expect(messages.find((message) => message.role === 'tool')?.results).toEqual([
      expect.objectContaining({ tool_name: 'propose_partial_edits', decision: 'accepted' }),
    ]);
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'Next' });
    const theirs = await call(t, 'GET', `documents/${doc.uuid}/ai/context/?chat=${chat?.id}`, { as: bob });
    expect(theirs.statusCode).toBe(404);
    const other = await createDocument(t, alice, { title: 'Other plan' });
    const elsewhere = await call(t, 'GET', `documents/${other.uuid}/ai/context/?chat=${chat?.id}`, {
      as: alice,
    });
    expect(elsewhere.statusCode).toBe(404);
  });
});

describe('chat socket: hostile input (CH8)', () => {
  it('CH8 non-JSON, binary, unknown, oversized and blank frames are refused and the socket stays usable', async () => {
    const socket = await openChatSocket(chatUrl(base, { documentId: doc.uuid }, alice.token));
    await socket.next((frame) => frame.type === 'authenticated');
    socket.sendRaw('{not json');
    socket.sendRaw(Buffer.from([1, 2, 3]));
    socket.send({ type: 'launch_missiles' });
    socket.send({ type: 'message', message: 'x'.repeat(20_001) });
    socket.send({ type: 'message', message: '   ' });
    socket.send({ type: 'ping', timestamp: 7 });
    await socket.next((frame) => frame.type === 'pong');
    const errors = socket.frames.filter((frame) => frame.type === 'error');
    expect(errors).toHaveLength(5);
    expect(String(errors[3]?.detail)).toMatch(/20,000/);
    socket.close();
  });

  it('CH8 hostile strings as messages never break the server', async () => {
    const socket = await openChatSocket(chatUrl(base, { documentId: doc.uuid, sectionUuid }, alice.token));
    await socket.next((frame) => frame.type === 'authenticated');
    const sample = hostileStrings.filter((text) => text.trim() !== '').slice(0, 40);
    for (const [i, text] of sample.entries()) {
      const frames = await ask(socket, text, `h-${i}`);
      expect(frames.at(-1)?.type).toBe('end_of_response');
      expect(
        frames.some((frame) => frame.type === 'system' && /went wrong/.test(String(frame.content))),
      ).toBe(false);
    }
    const health = await t.app.inject({ method: 'GET', url: '/api/v1/health/' });
    expect(health.statusCode).toBeLessThan(500);
    socket.close();
  });
});

describe('chat socket: the scope goes away (CH3)', () => {
  it('a message about a subsection deleted since the socket opened is answered with a note, not an error', async () => {
    const plan = await createDocument(t, alice, { title: 'Shrinking plan' });
    const section = outlineOf(plan.content).sections[1];
    const doomed = section?.subsections[0]?.uuid;
    if (!section || !doomed) throw new Error('no subsection');
    const socket = await openChatSocket(
      chatUrl(
        base,
        { documentId: plan.uuid, sectionUuid: section.uuid, subsectionUuid: doomed },
        alice.token,
      ),
    );
    await socket.next((frame) => frame.type === 'authenticated');
    const removed = await call(
      t,
      'DELETE',
      `documents/${plan.uuid}/sections/${section.uuid}/subsections/${doomed}/`,
      {
        as: alice,
      },
    );
    expect(removed.statusCode).toBe(204);
    const frames = await ask(socket, 'Still there?', 'gone-1');
    expect(frames.find((frame) => frame.type === 'system')?.content).toBe(
      'This subsection no longer exists in the document.',
    );
    expect(frames.at(-1)?.type).toBe('end_of_response');
    socket.close();
  });
});

describe('chats over HTTP (CH10)', () => {
  it('CH10 POST makes an untitled chat; its first message names it; lists are per user', async () => {
    const created = await call(t, 'POST', 'chats/', {
      as: alice,
      body: { target: 'section', object_id: sectionUuid },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      title: 'Untitled Chat',
      target: 'section',
      document_uuid: doc.uuid,
    });
    const id = created.json().id as string;
    const socket = await openChatSocket(
      chatUrl(base, { documentId: doc.uuid, sectionUuid, chatId: id }, alice.token),
    );
    await socket.next((frame) => frame.type === 'authenticated');
    await ask(socket, 'Market size for a bakery', 'n-1');
    socket.close();
    const list = await call(
      t,
      'GET',
      `chats/?target=section&object_id=${sectionUuid}&document_uuid=${doc.uuid}`,
      {
        as: alice,
      },
    );
    expect(list.json().data.find((chat: { id: string }) => chat.id === id)?.title).toBe(
      'Market size for a bakery',
    );
    const theirs = await call(t, 'GET', `chats/?target=section&object_id=${sectionUuid}`, { as: bob });
    expect(theirs.json().data).toEqual([]);
    const named = await call(
      t,
      'GET',
      `chats/?target=section&object_id=${sectionUuid}&document_uuid=${doc.uuid}`,
      {
        as: bob,
      },
    );
    expect(named.statusCode).toBe(404);
    const whole = await call(t, 'GET', `chats/?target=document&object_id=${doc.uuid}`, { as: bob });
    expect(whole.statusCode).toBe(404);
  });

  it("CH10 another user's document answers 404; bad input 400 naming the field; anonymous 401", async () => {
    const foreign = await call(t, 'POST', 'chats/', {
      as: bob,
      body: { target: 'document', object_id: doc.uuid },
    });
    expect(foreign.statusCode).toBe(404);
    const bad = await call(t, 'POST', 'chats/', { as: alice, body: { target: 'planet', object_id: 'x' } });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .errors.map((error: { param: string }) => error.param)
        .sort(),
    ).toEqual(['object_id', 'target']);
    const anonymous = await call(t, 'GET', `chats/?target=document&object_id=${doc.uuid}`);
    expect(anonymous.statusCode).toBe(401);
  });

  it('CH10 a section uuid held by two of the user’s documents needs document_uuid', async () => {
    const second = await createDocument(t, alice, { title: 'Second plan' });
    // A client may copy a tree between documents: section uuids are unique per document only.
    const copied = await call(t, 'PATCH', `documents/${second.uuid}/`, {
      as: alice,
      body: { content: doc.content },
    });
    expect(copied.statusCode).toBe(200);
    const res = await call(t, 'POST', 'chats/', {
      as: alice,
      body: { target: 'section', object_id: sectionUuid },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].param).toBe('document_uuid');
    const named = await call(t, 'POST', 'chats/', {
      as: alice,
      body: { target: 'section', object_id: sectionUuid, document_uuid: second.uuid },
    });
    expect(named.statusCode).toBe(201);
    expect(named.json().document_uuid).toBe(second.uuid);
  });
});

describe('chat socket with a model over the openai-compatible provider (CH4, CH5, CH11, CH12)', () => {
  let model: OpenAiStreamServer;
  let m: TestApp;
  let mBase: string;
  let carol: SignedInUser;
  let plan: { uuid: string; content: unknown };
  let scope: { documentId: string; sectionUuid: string; subsectionUuid: string };

  beforeAll(async () => {
    model = await startOpenAiStreamServer();
    m = await createTestApp({
      PLANWRIGHT_AI_PROVIDER: 'openai-compatible',
      PLANWRIGHT_AI_BASE_URL: model.baseUrl,
      PLANWRIGHT_AI_MAX_RETRIES: '0',
      PLANWRIGHT_AI_CALLS_PER_MINUTE: '6',
    });
    mBase = await m.app.listen({ port: 0, host: '127.0.0.1' });
    carol = await createSignedInUser(m, { email: 'carol@example.com' });
    plan = await createDocument(m, carol, { title: 'Cafe plan' });
    const first = outlineOf(plan.content).sections[0];
    if (!first?.subsections[0]) throw new Error('no subsection');
    scope = { documentId: plan.uuid, sectionUuid: first.uuid, subsectionUuid: first.subsections[0].uuid };
  });
  afterAll(async () => {
    await m?.close();
    await model?.close();
  });

  async function open() {
    const socket = await openChatSocket(chatUrl(mBase, scope, carol.token));
    await socket.next((frame) => frame.type === 'authenticated');
    return socket;
  }

  it('CH5 a proposal the document cannot take is not shown; the model reads why on the next turn', async () => {
    model.script(
      {
        type: 'answer',
        text: 'Rewriting it.',
        toolCalls: [
          {
            id: 'call_bad',
            name: 'propose_full_subsection',
            arguments: {
              subsection_uuid: '00000000-0000-4000-8000-00000000dead',
              format: 'markdown',
              content: 'x',
            },
          },
        ],
      },
      { type: 'answer', text: 'Sorry about that.' },
    );
    const socket = await open();
    const frames = await ask(socket, 'Rewrite the subsection', 'm-1');
    expect(frames.some((frame) => frame.type === 'tool_proposal')).toBe(false);
    expect(frames.find((frame) => frame.type === 'system')?.content).toMatch(/does not fit the document/);
    await ask(socket, 'Try again', 'm-2');
    const next = model.requests.at(-1)?.body as { messages: Array<{ role: string; content: unknown }> };
    const result = next.messages.find((message) => message.role === 'tool');
    expect(String(result?.content)).toContain('invalid');
    socket.close();
  });

  it('CH5 tiptap_json content sent as JSON text reaches the client as a tree', async () => {
    const doc = {
      type: 'doc',
      content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Fresh.' }] }],
    };
    model.script({
      type: 'answer',
      text: 'Here.',
      toolCalls: [
        {
          name: 'propose_full_subsection',
          arguments: {
            subsection_uuid: scope.subsectionUuid,
            format: 'tiptap_json',
            content: JSON.stringify(doc),
          },
        },
      ],
    });
    const socket = await open();
    const frames = await ask(socket, 'Write it as a tree', 'm-3');
    const proposal = frames.find((frame) => frame.type === 'tool_proposal');
    expect(proposal?.payload).toMatchObject({ format: 'tiptap_json', doc });
    socket.close();
  });

  it('CH4 web access or research asked of a model that cannot: a note says so before the answer, and stays', async () => {
    model.script({ type: 'answer', text: 'From what I know.' });
    const socket = await open();
    const from = socket.frames.length;
    socket.send({
      type: 'message',
      message: 'Latest market data?',
      client_id: 'm-web',
      options: { web_access: 'on', research: 'on' },
    });
    await socket.next((frame) => frame.type === 'end_of_response', from);
    const frames = socket.frames.slice(from);
    const note = frames.findIndex((frame) => frame.type === 'system');
    expect(String(frames[note]?.content)).toMatch(/cannot search the web or do research/);
    expect(note).toBeLessThan(frames.findIndex((frame) => frame.type === 'ai'));
    const chatId = String(frames.find((frame) => frame.type === 'human')?.chat_id);
    const roles = (await m.storage.chats.messagesOf(chatId, 3)).map((message) => message.role);
    expect(roles).toEqual(['user', 'system', 'ai']);
    socket.close();
  });

  it('CH11 stop cancels the provider call, keeps the text and marks the end interrupted', async () => {
    model.script({ type: 'hang', text: ['Slowly ', 'thinking'] });
    const socket = await open();
    const from = socket.frames.length;
    const requests = model.requests.length;
    socket.send({ type: 'message', message: 'Take your time', client_id: 'm-4' });
    await socket.next((frame) => frame.type === 'ai' && frame.content === 'Slowly thinking', from);
    socket.send({ type: 'stop' });
    const end = await socket.next((frame) => frame.type === 'end_of_response', from);
    expect(end.interrupted).toBe(true);
    await model.waitForClientDisconnect(requests);
    const chatId = String(socket.frames.find((frame) => frame.type === 'human')?.chat_id);
    const stored = (await m.storage.chats.messagesOf(chatId, 10)).at(-1);
    expect(stored).toMatchObject({ role: 'ai', content: 'Slowly thinking' });
    expect(stored?.metadata).toMatchObject({ interrupted: true });
    socket.close();
  });

  it('CH12 a provider failure ends the answer in fixed words, never the provider’s', async () => {
    model.script({ type: 'error', status: 503, message: 'overloaded: internal host 10.0.0.7' });
    const socket = await open();
    const frames = await ask(socket, 'Hello?', 'm-5');
    const note = frames.find((frame) => frame.type === 'system');
    expect(note?.content).toBe('The AI service is unavailable right now. Please try again later.');
    expect(JSON.stringify(frames)).not.toContain('10.0.0.7');
    socket.close();
  });

  it('CH4 over the per-minute limit the answer is a system note, and the socket stays usable', async () => {
    // A user of their own, so the earlier tests' calls do not count.
    const dave = await createSignedInUser(m, { email: 'dave@example.com' });
    const own = await createDocument(m, dave, { title: 'Dave plan' });
    const socket = await openChatSocket(chatUrl(mBase, { documentId: own.uuid }, dave.token));
    await socket.next((frame) => frame.type === 'authenticated');
    model.setDefaultAnswer({ type: 'answer', text: 'Counted.' });
    let limited: Frame[] | undefined;
    for (let i = 0; i < 8 && !limited; i++) {
      const frames = await ask(socket, `count ${i}`, `limit-${i}`);
      if (
        frames.some((frame) => frame.type === 'system' && /Too many AI requests/.test(String(frame.content)))
      ) {
        limited = frames;
      }
    }
    expect(limited?.at(-1)?.type).toBe('end_of_response');
    expect(limited?.some((frame) => frame.type === 'ai' || frame.type === 'human')).toBe(false);
    // A refused message is not stored: only the answered ones are in the chat.
    const echoed = socket.frames.filter(
      (frame) => frame.type === 'human' && /^count /.test(String(frame.content)),
    );
    const chatId = String(echoed[0]?.chat_id);
    const stored = (await m.storage.chats.messagesOf(chatId, 200)).filter(
      (message) => message.role === 'user' && message.content.startsWith('count '),
    );
    expect(echoed).toHaveLength(6);
    expect(stored).toHaveLength(6);
    socket.send({ type: 'ping', timestamp: 1 });
    await socket.next((frame) => frame.type === 'pong');
    socket.close();
  });
});
