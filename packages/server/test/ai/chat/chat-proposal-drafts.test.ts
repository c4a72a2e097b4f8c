import { parseServerFrame } from '@planwright/sdk';
import { outlineOf } from '@planwright/sdk/model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type OpenAiStreamServer,
  startOpenAiStreamServer,
} from '../../../../../tests/support/openai-stream-server.mjs';
import { ProposalDrafts } from '../../../src/ai/chat/chat-proposal-drafts.js';
import { chatUrl, openChatSocket } from '../../support/chat-socket.js';
import { createSignedInUser, type SignedInUser } from '../../support/signed-in-user.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { createDocument } from '../../support/workspace-calls.js';

let model: OpenAiStreamServer;
let t: TestApp;
let base: string;
let user: SignedInUser;
let plan: { uuid: string; content: unknown };
/** While set, the model holds the rest of its answer at this chunk until released (no timing involved). */
let hold: { chunk: number; gate: Promise<void> } | null = null;

beforeAll(async () => {
  model = await startOpenAiStreamServer({
    onChunk: async ({ chunkIndex }: { chunkIndex: number }) => {
      if (hold && chunkIndex >= hold.chunk) await hold.gate;
    },
  });
  t = await createTestApp({
    PLANWRIGHT_AI_PROVIDER: 'openai-compatible',
    PLANWRIGHT_AI_BASE_URL: model.baseUrl,
    PLANWRIGHT_AI_MAX_RETRIES: '0',
    PLANWRIGHT_AI_CALLS_PER_MINUTE: '1000',
  });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  user = await createSignedInUser(t, { email: 'drafts@example.com' });
  plan = await createDocument(t, user, { title: 'Drafts' });
});

afterAll(async () => {
  await t?.close();
  await model?.close();
});

describe('proposals stream as drafts (CH22)', () => {
  it('CH22 a proposal streams as tool_generating drafts under the id its tool_proposal then has', async () => {
    const subsection = outlineOf(plan.content).sections[0]?.subsections[0]?.uuid as string;
    const content =
      'We bake sourdough every morning for the cafés of the neighbourhood, and deliver by bike.';
    model.script({
      type: 'answer',
      text: '',
      toolCalls: [
        {
          name: 'propose_full_subsection',
          pieces: 20,
          arguments: { subsection_uuid: subsection, format: 'markdown', content },
        },
      ],
    });
    const socket = await openChatSocket(chatUrl(base, { documentId: plan.uuid }, user.token));
    await socket.next((frame) => frame.type === 'authenticated');
    const start = socket.frames.length;
    let release = () => {};
    hold = { chunk: 12, gate: new Promise<void>((resolve) => (release = resolve)) };
    socket.send({ type: 'message', message: 'Draft it', client_id: 'c-draft', options: {} });
    // Mid-way through the arguments, the draft so far has reached the client.
    await socket.next(
      (frame) => frame.type === 'tool_generating' && frame.partial_payload !== undefined,
      start,
    );
    hold = null;
    release();
    await socket.next((frame) => frame.type === 'end_of_response', start);
    const frames = socket.frames.slice(start);
    // Every frame is the protocol's (the SDK's strict schema).
    for (const frame of frames)
      expect(parseServerFrame(JSON.stringify(frame)), JSON.stringify(frame)).not.toHaveProperty('refused');
    const generating = frames.filter((frame) => frame.type === 'tool_generating');
    const proposal = frames.find((frame) => frame.type === 'tool_proposal');
    expect(proposal).toBeDefined();
    expect(generating[0]).toMatchObject({ tool_name: 'propose_full_subsection', tool_id: proposal?.tool_id });
    const drafts = generating.filter((frame) => frame.partial_payload !== undefined);
    expect(drafts.length).toBeGreaterThan(0);
    for (const frame of drafts) expect(frame.tool_id).toBe(proposal?.tool_id);
    // The content grows as the model writes it, each draft a prefix of the final text.
    const texts = drafts.map((frame) =>
      String((frame.partial_payload as { content?: unknown }).content ?? ''),
    );
    for (const text of texts) expect(content.startsWith(text)).toBe(true);
    // Nothing of a draft comes after its proposal.
    expect(frames.indexOf(drafts.at(-1) as never)).toBeLessThan(frames.indexOf(proposal as never));
    socket.close();
  });

  it('CH22 drafts: the first frame at once, then at most one per interval; nothing after complete or dispose', async () => {
    const sent: unknown[] = [];
    let now = 1_000;
    const drafts = new ProposalDrafts(
      'm1',
      (frame) => sent.push(frame),
      () => now,
    );
    const started = drafts.start('call-1', 'propose_partial_edits');
    expect(started).toMatchObject({
      type: 'tool_generating',
      tool_id: expect.stringMatching(/^tool_/),
      message_id: 'm1',
    });
    drafts.input('call-1', '{"edits":[{"targetNodeId":"n1","mode":"replace","content":"Hel');
    await new Promise((resolve) => setTimeout(resolve, 0));
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ partial_payload: { edits: [{ targetNodeId: 'n1', content: 'Hel' }] } });
    expect(drafts.complete('call-1')).toBe((started as { tool_id: string }).tool_id);
    drafts.input('call-1', 'lo"}]}');
    now += 1_000;
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(sent).toHaveLength(1);
    drafts.start('call-2', 'propose_full_subsection');
    drafts.dispose();
    drafts.input('call-2', '{"content":"x"}');
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(sent).toHaveLength(1);
  });
});
