/**
 * A chat that recovers (issue 25; SDK C50–C52, server CH18): the real SDK ChatSession over `ws` through the fault
 * proxy to the real server. Time on the session's side is its injected ManualClock; no test sleeps for the outage.
 *
 * CR1 A 60 s outage (every connection reset as it arrives) ends with the chat connected again and the message
 *     queued meanwhile answered, without the user sending anything again (C50).
 * CR2 Stop leaves the text so far marked interrupted, on the client and in the stored history (C51, CH11).
 * CR3 A connection lost while an answer streams: the session reconnects, the server sends the answer so far to the
 *     new socket and keeps streaming there, and the SDK continues the same message (one answer, complete, not
 *     marked) (C52, CH18).
 */
import { ChatSession, type ChatSnapshot } from '@planwright/sdk';
import { ManualClock } from '@planwright/sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeSocketFactory } from '../support/chat-session-node.js';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.js';
import { type OpenAiStreamServer, startOpenAiStreamServer } from '../support/openai-stream-server.js';
import { type SdkAccount, signUpWithSdk } from '../support/sdk-accounts.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let model: OpenAiStreamServer;
let server: TestServer;
let proxy: FaultProxy;
let account: SdkAccount;
/** Chunks holding this word wait until the test opens the gate. */
const GATED = 'Resumed';
let openGate: () => void = () => {};
let gate: Promise<void> = Promise.resolve();

beforeAll(async () => {
  model = await startOpenAiStreamServer({
    onChunk: async ({ data }) => {
      if (data.includes(GATED)) await gate;
    },
  });
  server = await startTestServer({ env: model.providerEnv() });
  proxy = await startFaultProxy({ host: '127.0.0.1', port: Number(new URL(server.url).port) });
  account = await signUpWithSdk(server, 'recovery@example.com');
}, 180_000);
afterAll(async () => {
  openGate();
  await proxy?.close();
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

async function newPlan(): Promise<string> {
  const blueprints = await account.client.blueprints.available();
  const blueprint = blueprints.items.find((item) => item.is_default) ?? blueprints.items[0];
  if (!blueprint) throw new Error('no blueprint');
  return (await account.client.documents.create({ blueprint: blueprint.uuid, title: 'Recovery' })).uuid;
}

function openSession(documentUuid: string, clock: ManualClock, baseUrl = proxy.url) {
  return new ChatSession({
    baseUrl,
    scope: { documentUuid },
    getToken: () => account.tokenStore.getToken(),
    socketFactory: nodeSocketFactory,
    clock,
    random: () => 0.5,
    logger: { warn: () => {}, error: () => {} },
  });
}

const answers = (s: ChatSnapshot) => s.messages.filter((m) => m.role === 'ai');

describe('a chat that recovers', () => {
  it('CR1: after a 60 s outage the chat is back and the queued message answered, nobody sending again', async () => {
    const plan = await newPlan();
    const clock = new ManualClock();
    const session = openSession(plan, clock);
    session.connect();
    await until(
      () => session.getSnapshot().status === 'connected',
      'connect',
      () => clock.advance(100),
    );
    clock.advance(5_000);

    proxy.refuse();
    proxy.resetAll();
    await until(() => session.getSnapshot().status !== 'connected', 'the drop');
    model.enqueue({ type: 'answer', text: ['Back ', 'again.'] });
    expect(session.send('Are you there?').ok).toBe(true);
    // 60 s of simulated outage: each attempt is reset by the proxy as it arrives.
    const accepted = proxy.accepted;
    for (let elapsed = 0; elapsed < 60_000; elapsed += 1_000) {
      clock.advance(1_000);
      await tick();
    }
    expect(proxy.accepted - accepted).toBeGreaterThanOrEqual(5);
    expect(session.getSnapshot().status).not.toBe('connected');
    proxy.resume();
    await until(
      () => {
        const s = session.getSnapshot();
        return s.status === 'connected' && answers(s).at(-1)?.content === 'Back again.' && !s.loading;
      },
      'the answer after the outage',
      () => clock.advance(1_000),
    );
    const user = session.getSnapshot().messages.filter((m) => m.role === 'user');
    // Once, never failed (history's copy, once read, carries no delivery state).
    expect(user.map((m) => m.content)).toEqual(['Are you there?']);
    expect(user[0]?.metadata.delivery).not.toBe('failed');
    session.dispose();
  }, 60_000);

  it('CR2: Stop keeps the text so far, marked interrupted, here and in the stored history', async () => {
    const plan = await newPlan();
    const clock = new ManualClock();
    const session = openSession(plan, clock, server.url);
    session.connect();
    await until(
      () => session.getSnapshot().status === 'connected',
      'connect',
      () => clock.advance(100),
    );
    model.enqueue({ type: 'hang', text: ['Thinking ', 'hard'] });
    session.send('Think');
    await until(
      () => answers(session.getSnapshot()).at(-1)?.content === 'Thinking hard',
      'the stream',
      () => clock.advance(10),
    );
    expect(session.stop()).toBe(true);
    await until(() => !session.getSnapshot().loading, 'the stop');
    expect(answers(session.getSnapshot()).at(-1)).toMatchObject({
      content: 'Thinking hard',
      isPartial: false,
      metadata: expect.objectContaining({ interrupted: true }),
    });
    session.requestHistory({ force: true });
    await until(
      () => !session.getSnapshot().historyLoading,
      'history',
      () => clock.advance(10),
    );
    const stored = answers(session.getSnapshot());
    expect(stored).toHaveLength(1);
    expect(stored[0]?.metadata).toMatchObject({ interrupted: true, serverId: expect.any(String) });
    session.dispose();
  }, 30_000);

  it('CR3: an answer streaming when the connection drops keeps streaming to the new socket, in the same message', async () => {
    const plan = await newPlan();
    const clock = new ManualClock();
    const session = openSession(plan, clock);
    session.connect();
    await until(
      () => session.getSnapshot().status === 'connected',
      'connect',
      () => clock.advance(100),
    );
    clock.advance(5_000);

    gate = new Promise<void>((resolve) => {
      openGate = resolve;
    });
    model.enqueue({ type: 'answer', text: ['Started. ', `${GATED} `, 'and finished.'] });
    session.send('Tell me');
    await until(
      () => answers(session.getSnapshot()).at(-1)?.content === 'Started. ',
      'the first part',
      () => clock.advance(10),
    );
    proxy.resetAll();
    await until(() => session.getSnapshot().status !== 'connected', 'the drop');
    expect(answers(session.getSnapshot()).at(-1)?.metadata.interrupted).toBe(true);
    // The reconnect: the server sends the text so far to the new socket.
    await until(
      () =>
        session.getSnapshot().status === 'connected' &&
        answers(session.getSnapshot()).at(-1)?.isPartial === true,
      'the resumed stream',
      () => clock.advance(250),
    );
    openGate();
    await until(
      () => {
        const s = session.getSnapshot();
        return answers(s).at(-1)?.content === 'Started. Resumed and finished.' && !s.loading;
      },
      'the rest of the answer',
      () => clock.advance(250),
    );
    const shown = answers(session.getSnapshot());
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({ isPartial: false });
    expect(shown[0]?.metadata.interrupted).toBeUndefined();
    expect(session.getSnapshot().messages.filter((m) => m.role === 'user')).toHaveLength(1);
    session.dispose();
  }, 30_000);
});
