/**
 * The chat protocol's contract (SDK `chat/chat-protocol.ts`): the real SDK ChatSession talks to the real server over
 * `ws`, every frame on the wire is recorded at the client's socket (what it sends is exactly what the server
 * reads; what it receives is exactly what the server sent), and each is parsed with the other side's schema:
 *
 * CP1 Every frame the SDK sends parses with `parseClientFrame`, the function the server reads frames with, and
 *     keeps its `context` (the server no longer drops it, CH17).
 * CP2 Every frame the server sends parses with the strict `ServerFrame` schema, and the SDK's forgiving
 *     `parseIncomingFrame` reads it as a known frame (never `invalid`).
 * CP3 The conversation covers authenticate, ping/pong, history (with a replayed proposal), a message with an
 *     attachment, streaming, a proposal and its decision, and a stopped answer (`end_of_response {interrupted}`).
 * CP4 A `message` whose context names another document is refused (`error wrong_scope`) and nothing is stored.
 */
import {
  CHAT_TIMINGS,
  ChatSession,
  type ChatSocket,
  type ChatSocketFactory,
  parseClientFrame,
  parseIncomingFrame,
  parseServerFrame,
} from '@planwright/sdk';
import { outlineOf } from '@planwright/sdk/model';
import { ManualClock } from '@planwright/sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { nodeSocketFactory } from '../support/chat-session-node.js';
import { type OpenAiStreamServer, startOpenAiStreamServer } from '../support/openai-stream-server.js';
import { type SdkAccount, signUpWithSdk } from '../support/sdk-accounts.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let model: OpenAiStreamServer;
let server: TestServer;
let account: SdkAccount;

beforeAll(async () => {
  model = await startOpenAiStreamServer();
  server = await startTestServer({ env: model.providerEnv() });
  account = await signUpWithSdk(server, 'protocol@example.com');
}, 180_000);
afterAll(async () => {
  await server?.close();
  await model?.close();
});

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 5));

/** Polls `check` (real time, bounded) while `step` moves simulated time on. */
async function until(check: () => boolean, label: string, step: () => void = () => {}, deadlineMs = 10_000) {
  const end = Date.now() + deadlineMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${label}`);
    step();
    await tick();
  }
}

/** A socket factory that records every frame each way, as the wire carries it. */
function recordingFactory(inner: ChatSocketFactory) {
  const sent: string[] = [];
  const received: string[] = [];
  const factory: ChatSocketFactory = (url) => {
    const socket = inner(url);
    const recorded: ChatSocket = {
      send: (data) => {
        sent.push(data);
        socket.send(data);
      },
      close: (code, reason) => socket.close(code, reason),
      get onopen() {
        return socket.onopen;
      },
      set onopen(handler) {
        socket.onopen = handler;
      },
      get onmessage() {
        return socket.onmessage;
      },
      set onmessage(handler) {
        socket.onmessage =
          handler &&
          ((event) => {
            if (typeof event.data === 'string') received.push(event.data);
            handler(event);
          });
      },
      get onclose() {
        return socket.onclose;
      },
      set onclose(handler) {
        socket.onclose = handler;
      },
      get onerror() {
        return socket.onerror;
      },
      set onerror(handler) {
        socket.onerror = handler;
      },
    };
    return recorded;
  };
  return { factory, sent, received };
}

async function newPlan() {
  const blueprints = await account.client.blueprints.available();
  const blueprint = blueprints.items.find((item) => item.is_default) ?? blueprints.items[0];
  if (!blueprint) throw new Error('no blueprint');
  const document = await account.client.documents.create({ blueprint: blueprint.uuid, title: 'Contract' });
  const section = outlineOf(document.content).sections[0];
  const subsection = section?.subsections[0];
  if (!section || !subsection) throw new Error('no subsection');
  return { uuid: document.uuid, sectionUuid: section.uuid, subsectionUuid: subsection.uuid };
}

describe('chat protocol contract', () => {
  it('CP1 CP2 CP3: every frame each side sends parses with the other side’s schema', async () => {
    const plan = await newPlan();
    const clock = new ManualClock();
    const wire = recordingFactory(nodeSocketFactory);
    const session = new ChatSession({
      baseUrl: server.url,
      scope: { documentUuid: plan.uuid, sectionUuid: plan.sectionUuid, subsectionUuid: plan.subsectionUuid },
      getToken: () => account.tokenStore.getToken(),
      socketFactory: wire.factory,
      clock,
      logger: { warn: () => {}, error: () => {} },
    });
    const advance = () => clock.advance(100);
    const settled = () => {
      const s = session.getSnapshot();
      return s.status === 'connected' && !s.loading && !s.historyLoading && s.messages.at(-1)?.role === 'ai';
    };

    session.connect();
    await until(() => session.getSnapshot().status === 'connected', 'connect', advance);

    // A streamed answer with a proposal, asked with an attachment.
    model.enqueue({
      type: 'answer',
      text: ['Here is ', 'a draft.'],
      toolCalls: [
        {
          name: 'propose_full_subsection',
          arguments: {
            subsection_uuid: plan.subsectionUuid,
            format: 'markdown',
            content: 'Our goals are clear.',
            notes: 'Draft',
          },
        },
      ],
    });
    expect(
      session.send('Draft it', { webAccess: true, attachments: [{ name: 'notes.md', content: '# Notes' }] })
        .ok,
    ).toBe(true);
    await until(() => settled() && session.getSnapshot().proposals.length === 1, 'the answer', advance);
    const proposal = session.getSnapshot().proposals[0];
    expect(session.acceptProposal(proposal?.toolId ?? '')).toBe(true);
    await until(
      () => wire.received.some((frame) => frame.includes('"tool_complete"')),
      'tool_complete',
      advance,
    );

    // A ping answered with pong (C46).
    const pongs = () => wire.received.filter((frame) => frame.includes('"pong"')).length;
    clock.advance(CHAT_TIMINGS.pingMs);
    await until(() => pongs() > 0, 'pong');

    // A stopped answer: end_of_response {interrupted} (CH11).
    model.enqueue({ type: 'hang', text: ['Thinking ', 'slowly'] });
    expect(session.send('Think long').ok).toBe(true);
    await until(
      () => session.getSnapshot().messages.at(-1)?.content === 'Thinking slowly',
      'the hang',
      advance,
    );
    expect(session.stop()).toBe(true);
    await until(() => !session.getSnapshot().loading, 'the stop', advance);

    // History again: history_response and the replayed, decided proposal.
    const histories = () => wire.received.filter((frame) => frame.includes('"history_response"')).length;
    const before = histories();
    session.requestHistory({ force: true });
    await until(() => histories() > before && !session.getSnapshot().historyLoading, 'history', advance);
    session.dispose();

    const sentTypes = new Set<string>();
    for (const data of wire.sent) {
      const frame = parseClientFrame(data);
      expect(frame, data).not.toHaveProperty('refused');
      if ('refused' in frame) continue;
      sentTypes.add(frame.type);
      if (frame.type === 'message') {
        expect(frame.context).toEqual({
          document_uuid: plan.uuid,
          section_uuid: plan.sectionUuid,
          subsection_uuid: plan.subsectionUuid,
          chat_id: null,
        });
      }
    }
    expect([...sentTypes].sort()).toEqual([
      'authenticate',
      'history',
      'message',
      'ping',
      'stop',
      'tool_approval',
    ]);

    const receivedTypes = new Set<string>();
    for (const data of wire.received) {
      const frame = parseServerFrame(data);
      expect(frame, data).not.toHaveProperty('refused');
      if ('refused' in frame) continue;
      receivedTypes.add(frame.type);
      expect(parseIncomingFrame(data).type, data).not.toBe('invalid');
    }
    expect([...receivedTypes].sort()).toEqual(
      [
        'ai',
        'authenticated',
        'end_of_response',
        'history_response',
        'human',
        'pong',
        // The model cannot search the web: a note says so (CH4).
        'system',
        'tool_complete',
        'tool_executing',
        'tool_generating',
        'tool_proposal',
      ].sort(),
    );
    const interrupted = wire.received
      .map(parseServerFrame)
      .find((frame) => 'type' in frame && frame.type === 'end_of_response' && frame.interrupted === true);
    expect(interrupted).toBeDefined();
  }, 60_000);

  it('CP4: a message written in another document is refused with wrong_scope and not stored', async () => {
    const plan = await newPlan();
    const other = await newPlan();
    const url = `${server.url.replace(/^http/, 'ws')}/ws/document/${plan.uuid}/chat/`;
    const socket = new WebSocket(url);
    const frames: unknown[] = [];
    socket.on('message', (data) => frames.push(JSON.parse(String(data))));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ type: 'authenticate', token: account.tokenStore.getToken() }));
    await until(() => frames.some((f) => (f as { type: string }).type === 'authenticated'), 'authenticated');
    socket.send(
      JSON.stringify({
        type: 'message',
        message: 'Wrong plan',
        client_id: 'c-1',
        context: { document_uuid: other.uuid, section_uuid: null, subsection_uuid: null, chat_id: null },
      }),
    );
    await until(() => frames.some((f) => (f as { type: string }).type === 'end_of_response'), 'the refusal');
    expect(frames).toContainEqual(
      expect.objectContaining({ type: 'error', code: 'wrong_scope', client_id: 'c-1' }),
    );
    expect(frames.some((f) => (f as { type: string }).type === 'human')).toBe(false);
    for (const frame of frames) expect(parseServerFrame(JSON.stringify(frame))).not.toHaveProperty('refused');
    socket.close();
  }, 30_000);
});
