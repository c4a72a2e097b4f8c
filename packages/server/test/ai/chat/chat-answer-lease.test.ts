import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatUrl, openChatSocket } from '../../support/chat-socket.js';
import { createSignedInUser, type SignedInUser } from '../../support/signed-in-user.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { createDocument } from '../../support/workspace-calls.js';

let t: TestApp;
let base: string;
let alice: SignedInUser;
let chatId: string;

beforeAll(async () => {
  t = await createTestApp({ PLANWRIGHT_AI_CALLS_PER_MINUTE: '1000' });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  alice = await createSignedInUser(t, { email: 'lease@example.com' });
  const doc = await createDocument(t, alice, { title: 'Lease plan' });
  const socket = await openChatSocket(chatUrl(base, { documentId: doc.uuid }, alice.token));
  await socket.next((frame) => frame.type === 'authenticated');
  socket.send({ type: 'message', message: 'First', client_id: 'c-first' });
  const human = await socket.next((frame) => frame.type === 'human');
  await socket.next((frame) => frame.type === 'end_of_response');
  chatId = String(human.chat_id);
  socket.close();
});

afterAll(async () => {
  await t?.close();
});

const NOW = Date.UTC(2026, 0, 1);

async function question(lease: number | null, clientId: string) {
  const { message } = await t.storage.chats.addMessage({
    chatId,
    role: 'user',
    content: `Question ${clientId}`,
    clientId,
    metadata: lease === null ? {} : { lease_until: lease },
    createdAt: new Date(),
  });
  return message;
}

describe('CH19 the answer lease', () => {
  it('CH19: an answered question holds no lease and is never taken over', async () => {
    const [first] = await t.storage.chats.messagesOf(chatId, 1);
    expect(first?.role).toBe('ai');
    const messages = await t.storage.chats.messagesOf(chatId, 10);
    const asked = messages.find((message) => message.clientId === 'c-first');
    expect(asked?.metadata).not.toHaveProperty('lease_until');
    expect(await t.storage.chats.claimOrphanedQuestion(chatId, NOW * 2, NOW * 2 + 15_000)).toBeUndefined();
  });

  it('CH19: a live lease is not taken over; one that ran out is, by exactly one claimant', async () => {
    const asked = await question(NOW + 10_000, 'c-live');
    expect(await t.storage.chats.claimOrphanedQuestion(chatId, NOW, NOW + 15_000)).toBeUndefined();
    const claims = await Promise.all([
      t.storage.chats.claimOrphanedQuestion(chatId, NOW + 20_000, NOW + 35_000),
      t.storage.chats.claimOrphanedQuestion(chatId, NOW + 20_000, NOW + 35_000),
    ]);
    expect(claims.filter((claim) => claim !== undefined).map((claim) => claim?.id)).toEqual([asked.id]);
    // Renewed by the claimant: live again.
    expect(await t.storage.chats.claimOrphanedQuestion(chatId, NOW + 30_000, NOW + 45_000)).toBeUndefined();
    await t.storage.chats.releaseAnswerLease(asked.id);
    expect(await t.storage.chats.claimOrphanedQuestion(chatId, NOW * 2, NOW * 2 + 15_000)).toBeUndefined();
  });

  it('CH19: a question followed by a finished answer is not taken over; a dead partial one is closed as lost', async () => {
    await question(NOW, 'c-answered');
    const { message: answer } = await t.storage.chats.addMessage({
      chatId,
      role: 'ai',
      content: 'Done.',
      metadata: {},
      createdAt: new Date(),
    });
    expect(answer.role).toBe('ai');
    expect(await t.storage.chats.claimOrphanedQuestion(chatId, NOW + 60_000, NOW + 75_000)).toBeUndefined();

    const orphan = await question(NOW, 'c-orphan');
    const { message: cut } = await t.storage.chats.addMessage({
      chatId,
      role: 'ai',
      content: 'Half',
      metadata: { partial: true },
      createdAt: new Date(),
    });
    expect((await t.storage.chats.claimOrphanedQuestion(chatId, NOW + 60_000, NOW + 75_000))?.id).toBe(
      orphan.id,
    );
    const closed = (await t.storage.chats.messagesOf(chatId, 50)).find((message) => message.id === cut.id);
    expect(closed?.metadata).toMatchObject({ partial: false, interrupted: true, lost: true });
  });

  it('CH19: a question stored without a lease (before leases existed) is never taken over', async () => {
    await question(null, 'c-old');
    expect(await t.storage.chats.claimOrphanedQuestion(chatId, NOW * 2, NOW * 2 + 15_000)).toBeUndefined();
  });
});
