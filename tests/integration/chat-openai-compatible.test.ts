import { ChatSession, type PlanwrightClient } from '@planwright/sdk';
import { outlineOf } from '@planwright/sdk/model';
import { applyProposal } from '@planwright/sdk/proposals';
import { ManualClock } from '@planwright/sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeSocketFactory, waitForSnapshot } from '../support/chat-session-node.js';
import { type OpenAiStreamServer, startOpenAiStreamServer } from '../support/openai-stream-server.js';
import { signUpWithSdk } from '../support/sdk-accounts.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The whole chat path for real: the SDK's ChatSession over a real WebSocket to the real server, whose
 * `openai-compatible` provider (the AI SDK) streams from a local server speaking OpenAI's wire format.
 */

let model: OpenAiStreamServer;
let server: TestServer;
let counter = 0;

beforeAll(async () => {
  model = await startOpenAiStreamServer();
  server = await startTestServer({ env: model.providerEnv() });
});
afterAll(async () => {
  await server?.close();
  await model?.close();
});

interface Account {
  client: PlanwrightClient;
  token: () => string | null;
}

async function signUp(prefix: string): Promise<Account> {
  const { client, tokenStore } = await signUpWithSdk(server, `${prefix}-${++counter}@example.com`);
  return { client, token: () => tokenStore.getToken() };
}

/** A session on a simulated clock: its timers (history after 500 ms, pings) run when the test says. */
function openSession(account: Account, scope: ConstructorParameters<typeof ChatSession>[0]['scope']) {
  const clock = new ManualClock();
  const session = new ChatSession({
    baseUrl: server.url,
    scope,
    getToken: account.token,
    socketFactory: nodeSocketFactory,
    clock,
    logger: { warn: () => {}, error: () => {} },
  });
  return { session, clock };
}

async function connected(session: ChatSession, clock: ManualClock) {
  session.connect();
  await waitForSnapshot(session, (s) => s.status === 'connected');
  clock.advance(500);
}

describe('chat over the real socket with the openai-compatible provider', () => {
  let owner: Account;
  let documentUuid: string;
  let sectionUuid: string;
  let subsectionUuid: string;

  beforeAll(async () => {
    owner = await signUp('chat-owner');
    const blueprints = await owner.client.blueprints.available();
    const blueprint = blueprints.items.find((item) => item.title === 'Business Plan') ?? blueprints.items[0];
    if (!blueprint) throw new Error('no blueprint');
    const document = await owner.client.documents.create({ blueprint: blueprint.uuid, title: 'Bakery plan' });
    documentUuid = document.uuid;
    const section = outlineOf(document.content).sections[0];
    if (!section?.subsections[0]) throw new Error('no subsection');
    sectionUuid = section.uuid;
    subsectionUuid = section.subsections[0].uuid;
  });

  it('streams, proposes a full subsection, records the approval and feeds it back to the model', async () => {
    const draft = '### Our bakery\n\nWe bake sourdough for the neighbourhood.';
    model.script({
      type: 'answer',
      text: ['Here is ', 'a draft ', 'for the summary.'],
      toolCalls: [
        {
          name: 'propose_full_subsection',
          arguments: {
            subsection_uuid: subsectionUuid,
            format: 'markdown',
            content: draft,
            notes: 'First draft',
          },
          pieces: 5,
        },
      ],
      usage: { prompt_tokens: 900, completion_tokens: 40 },
    });
    const { session, clock } = openSession(owner, { documentUuid, sectionUuid, subsectionUuid });
    await connected(session, clock);
    const deltas: string[] = [];
    session.onStream((event) => {
      if (event.type === 'delta') deltas.push(event.text);
    });
    expect(session.send('Write the executive summary').ok).toBe(true);
    const done = await waitForSnapshot(session, (s) => !s.loading && s.proposals.length === 1);
    const answer = done.messages.find((message) => message.role === 'ai');
    expect(answer?.content).toBe('Here is a draft for the summary.');
    expect(deltas.join('')).toBe('Here is a draft for the summary.');
    const proposal = done.proposals[0];
    expect(proposal).toMatchObject({ toolName: 'propose_full_subsection', status: 'pending' });
    expect(proposal?.payload).toMatchObject({ subsection_uuid: subsectionUuid, format: 'markdown' });

    // The model saw the context: the subsection's uuid and the proposal tools.
    const request = model.requests.at(-1)?.body as {
      model: string;
      messages: Array<{ role: string; content: unknown }>;
      tools?: Array<{ function: { name: string } }>;
    };
    expect(request.model).toBe('test-model');
    expect(JSON.stringify(request.messages[0])).toContain(subsectionUuid);
    expect(request.tools?.map((tool) => tool.function.name).sort()).toEqual([
      'propose_full_subsection',
      'propose_partial_edits',
    ]);

    // The client applies the proposal, saves, then accepts: the server records it.
    const current = await owner.client.documents.get(documentUuid);
    const applied = applyProposal(current.content, proposal?.toolName, proposal?.payload);
    expect(applied.ok).toBe(true);
    if (!applied.ok || !proposal) return;
    await owner.client.documents.update(documentUuid, { content: applied.document });
    expect(session.acceptProposal(proposal.toolId)).toBe(true);
    await waitForSnapshot(
      session,
      (s) => s.toolExecution.state === 'idle' && s.toolExecution.message !== null,
    );

    // The next turn carries the decision back to the model as the tool's result.
    model.script({ type: 'answer', text: 'Glad it helped.' });
    session.send('Thanks');
    await waitForSnapshot(
      session,
      (s) => !s.loading && s.messages.filter((m) => m.role === 'ai').length === 2,
    );
    const followUp = model.requests.at(-1)?.body as { messages: Array<Record<string, unknown>> };
    const toolMessage = followUp.messages.find((message) => message.role === 'tool');
    expect(String(toolMessage?.content)).toContain('accepted');
    const assistant = followUp.messages.find((message) => Array.isArray(message.tool_calls));
    expect(JSON.stringify(assistant)).toContain('propose_full_subsection');
    session.dispose();

    const usage = await owner.client.ai.usage({ documentUuid });
    expect(usage.total.calls).toBe(2);
    expect(usage.total.inputTokens).toBeGreaterThanOrEqual(900);
  });

  it('keeps history and pending proposals across a server restart', async () => {
    model.script({
      type: 'answer',
      text: 'A shorter version.',
      toolCalls: [
        {
          name: 'propose_full_subsection',
          arguments: { subsection_uuid: subsectionUuid, format: 'markdown', content: 'Short.' },
        },
      ],
    });
    const first = openSession(owner, { documentUuid, sectionUuid, subsectionUuid });
    await connected(first.session, first.clock);
    first.session.send('Make it shorter');
    const before = await waitForSnapshot(
      first.session,
      (s) => !s.loading && s.proposals.some((p) => p.status === 'pending'),
    );
    const pending = before.proposals.find((p) => p.status === 'pending');
    first.session.dispose();

    await server.stop();
    await server.restart();

    const again = openSession(owner, { documentUuid, sectionUuid, subsectionUuid });
    await connected(again.session, again.clock);
    const restored = await waitForSnapshot(
      again.session,
      (s) => !s.historyLoading && s.messages.length >= 6 && s.proposals.length === 2,
    );
    expect(restored.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Write the executive summary'],
      ['ai', 'Here is a draft for the summary.'],
      ['user', 'Thanks'],
      ['ai', 'Glad it helped.'],
      ['user', 'Make it shorter'],
      ['ai', 'A shorter version.'],
    ]);
    // Every proposal of the chat comes back, the decided one with its decision (CH14).
    expect(restored.proposals.map((p) => p.status)).toEqual(['accepted', 'pending']);
    expect(restored.proposals[1]).toMatchObject({ toolId: pending?.toolId, status: 'pending' });
    expect(again.session.rejectProposal(String(pending?.toolId))).toBe(true);
    await waitForSnapshot(
      again.session,
      (s) => s.toolExecution.state === 'idle' && s.toolExecution.message !== null,
    );
    again.session.dispose();
  });

  it('stops a streaming answer: the provider call is cancelled, the text so far is kept', async () => {
    model.script({ type: 'hang', text: ['Thinking ', 'very ', 'slowly'] });
    const { session, clock } = openSession(owner, { documentUuid, sectionUuid });
    await connected(session, clock);
    const requests = model.requests.length;
    session.send('Take your time');
    await waitForSnapshot(session, (s) =>
      s.messages.some((m) => m.role === 'ai' && m.content === 'Thinking very slowly'),
    );
    expect(session.stop()).toBe(true);
    await model.waitForClientDisconnect(requests);
    const stopped = await waitForSnapshot(session, (s) => !s.loading);
    expect(stopped.messages.at(-1)).toMatchObject({
      role: 'ai',
      content: 'Thinking very slowly',
      isPartial: false,
    });
    session.dispose();
  });

  it('a provider failure is said in words, and the socket stays usable', async () => {
    model.script({ type: 'error', status: 500, message: 'upstream exploded with key sk-secret' });
    const { session, clock } = openSession(owner, { documentUuid });
    await connected(session, clock);
    session.send('Hello?');
    const failed = await waitForSnapshot(
      session,
      (s) => !s.loading && s.messages.some((m) => m.role === 'system'),
    );
    const note = failed.messages.find((m) => m.role === 'system');
    expect(note?.content).toBe('The AI service is unavailable right now. Please try again later.');
    expect(JSON.stringify(failed.messages)).not.toContain('sk-secret');
    model.script({ type: 'answer', text: 'Back again.' });
    session.send('Retry');
    await waitForSnapshot(session, (s) => !s.loading && s.messages.some((m) => m.content === 'Back again.'));
    session.dispose();
  });

  it("another user's document cannot be chatted about (4404, as if missing) and its chats are not listed", async () => {
    const stranger = await signUp('chat-stranger');
    const { session } = openSession(stranger, { documentUuid, sectionUuid });
    session.connect();
    const refused = await waitForSnapshot(session, (s) => s.status === 'error');
    expect(refused.error).toBe('Failed to connect to chat.');
    session.dispose();
    const list = await stranger.client.chats.list({ target: 'section', objectId: sectionUuid });
    expect(list.items).toEqual([]);
  });
});
