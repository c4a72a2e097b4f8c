/**
 * An answer whose instance died mid-stream is answered by another (server CH19), on PostgreSQL with two instances
 * (the `integration-postgres` project; skipped on PGlite, which one process holds):
 *
 * CT1 Instance A (its own OS process) streams an answer; it is killed with SIGKILL mid-stream. The SDK session
 *     reconnects, on its own, to instance B, which answers nothing while A's lease may be live; on the next connect
 *     after the lease ran out (B's clock is set past it: nobody sleeps), B answers the question again and streams
 *     it to the session. The transcript ends with the
 *     question once and one complete answer; the stored history on B is the same.
 */
import { ChatSession, type ChatSnapshot, type ChatSocketFactory } from '@planwright/sdk';
import { ManualClock } from '@planwright/sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeSocketFactory } from '../support/chat-session-node.js';
import { type OpenAiStreamServer, startOpenAiStreamServer } from '../support/openai-stream-server.js';
import { type SdkAccount, signUpWithSdk } from '../support/sdk-accounts.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';
import {
  createTestDatabase,
  startTestServer,
  type TestServer,
  testDatabaseKind,
} from '../support/test-server.js';

const onPostgres = testDatabaseKind() === 'postgres';

let model: OpenAiStreamServer;
let database: { url: string; drop(): Promise<void> } | undefined;
let a: ServerProcess;
let b: TestServer;
let account: SdkAccount;
/** How far instance B's clock runs ahead of the real one. */
let bAhead = 0;

beforeAll(async () => {
  if (!onPostgres) return;
  model = await startOpenAiStreamServer();
  database = await createTestDatabase();
  const env = { ...model.providerEnv(), DATABASE_URL: database.url };
  a = await startServerProcess({ env });
  b = await startTestServer({ env, now: () => new Date(Date.now() + bAhead) });
  account = await signUpWithSdk(b, 'takeover@example.com');
}, 300_000);
afterAll(async () => {
  await a?.close();
  await b?.close();
  await model?.close();
  await database?.drop();
});

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 5));

async function until(check: () => boolean, label: string, step: () => void = () => {}, deadlineMs = 20_000) {
  const end = Date.now() + deadlineMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${label}`);
    step();
    await tick();
  }
}

const answers = (s: ChatSnapshot) => s.messages.filter((m) => m.role === 'ai');

describe.skipIf(!onPostgres)('an answer taken over by another instance', () => {
  it('CT1: A dies mid-stream; B answers the question again and the session shows one whole answer', async () => {
    const blueprints = await account.client.blueprints.available();
    const blueprint = blueprints.items.find((item) => item.is_default) ?? blueprints.items[0];
    if (!blueprint) throw new Error('no blueprint');
    const plan = await account.client.documents.create({ blueprint: blueprint.uuid, title: 'Takeover' });

    // The load balancer: new sockets go to A until it dies, then to B.
    let upstream = a.url;
    const factory: ChatSocketFactory = (url) =>
      nodeSocketFactory(url.replace(a.url.replace(/^http/, 'ws'), upstream.replace(/^http/, 'ws')));
    const clock = new ManualClock();
    const session = new ChatSession({
      baseUrl: a.url,
      scope: { documentUuid: plan.uuid },
      getToken: () => account.tokenStore.getToken(),
      socketFactory: factory,
      clock,
      random: () => 0.5,
      logger: { warn: () => {}, error: () => {} },
    });
    session.connect();
    await until(
      () => session.getSnapshot().status === 'connected',
      'connect',
      () => clock.advance(100),
    );
    clock.advance(5_000);

    model.enqueue({ type: 'hang', text: ['Half '] }, { type: 'answer', text: ['Whole ', 'answer.'] });
    expect(session.send('The question').ok).toBe(true);
    await until(
      () => answers(session.getSnapshot()).at(-1)?.content === 'Half ',
      'the first half',
      () => clock.advance(10),
    );

    upstream = b.url;
    await a.kill9();
    const completions = () =>
      model.requests.filter((request) => request.path.includes('chat/completions')).length;
    // While A's lease may still be live, B answers nothing: a slow instance is not a dead one.
    await until(
      () => session.getSnapshot().status === 'connected' && !session.getSnapshot().historyLoading,
      'the reconnect to B',
      () => clock.advance(250),
    );
    clock.advance(1_000);
    await tick();
    expect(completions()).toBe(1);
    // A's lease (15 s) has run out by B's clock (nobody waits for it); the next connect takes the question over.
    bAhead = 60_000;
    session.disconnect();
    session.connect();
    await until(
      () => {
        const s = session.getSnapshot();
        return s.status === 'connected' && answers(s).at(-1)?.content === 'Whole answer.' && !s.loading;
      },
      'the answer from B',
      () => clock.advance(250),
    );
    const shown = session.getSnapshot();
    expect(shown.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['The question']);
    expect(answers(shown).at(-1)).toMatchObject({ isPartial: false });
    expect(answers(shown).at(-1)?.metadata.interrupted).toBeUndefined();
    session.dispose();

    // What B stored: the question once, then the whole answer (A's empty partial is left out, CH9).
    const readerClock = new ManualClock();
    const reader = new ChatSession({
      baseUrl: b.url,
      scope: { documentUuid: plan.uuid },
      getToken: () => account.tokenStore.getToken(),
      socketFactory: nodeSocketFactory,
      clock: readerClock,
      logger: { warn: () => {}, error: () => {} },
    });
    reader.connect();
    await until(
      () => reader.getSnapshot().messages.length > 0 && !reader.getSnapshot().historyLoading,
      'stored history',
      () => readerClock.advance(250),
    );
    expect(reader.getSnapshot().messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'The question'],
      ['ai', 'Whole answer.'],
    ]);
    reader.dispose();
    expect(completions()).toBe(2);
  }, 120_000);
});
