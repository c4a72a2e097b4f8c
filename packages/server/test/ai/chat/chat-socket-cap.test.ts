import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionService } from '../../../src/auth/session-service.js';
import { chatUrl, openChatSocket, type TestChatSocket } from '../../support/chat-socket.js';
import { createSignedInUser, type SignedInUser } from '../../support/signed-in-user.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { createDocument } from '../../support/workspace-calls.js';

let t: TestApp;
let base: string;
let alice: SignedInUser;
let bob: SignedInUser;
let alicesDoc: string;
let bobsDoc: string;

beforeAll(async () => {
  t = await createTestApp({ CHAT_SOCKETS_PER_USER: '2' });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  alice = await createSignedInUser(t, { email: 'alice.tabs@example.com' });
  bob = await createSignedInUser(t, { email: 'bob.tabs@example.com' });
  alicesDoc = (await createDocument(t, alice, { title: 'Alice’s plan' })).uuid;
  bobsDoc = (await createDocument(t, bob, { title: 'Bob’s plan' })).uuid;
});

afterAll(async () => {
  await t?.close();
});

/** Opens a chat socket on `documentId` as `who` and waits until it is authenticated. */
async function chatting(who: SignedInUser, documentId: string): Promise<TestChatSocket> {
  const socket = await openChatSocket(chatUrl(base, { documentId }, who.token));
  await socket.next((frame) => frame.type === 'authenticated');
  return socket;
}

/**
 * Yields to the event loop (no timer) until the server has seen `count` sockets close: a client's close
 * event may come before the server's, which is what gives the place back.
 */
async function serverHolds(count: number): Promise<void> {
  for (let turn = 0; turn < 10_000 && t.app.websocketServer.clients.size !== count; turn++)
    await new Promise<void>((resolve) => setImmediate(resolve));
  expect(t.app.websocketServer.clients.size).toBe(count);
}

describe('chat sockets per user (CHAT_SOCKETS_PER_USER)', () => {
  it('closes a socket past the cap with 4429 and a reason; closing one frees a place; others are unaffected', async () => {
    const first = await chatting(alice, alicesDoc);
    const second = await chatting(alice, alicesDoc);

    const third = await openChatSocket(chatUrl(base, { documentId: alicesDoc }, alice.token));
    expect(await third.closed).toEqual({
      code: 4429,
      reason: 'Too many chat connections for this account: close another tab or window.',
    });
    expect(third.frames.some((frame) => frame.type === 'authenticated')).toBe(false);
    await serverHolds(2);

    // The cap is per user: Bob chats while Alice holds every place of hers.
    const bobs = await chatting(bob, bobsDoc);
    bobs.send({ type: 'ping', timestamp: 1 });
    expect(await bobs.next((frame) => frame.type === 'pong')).toEqual({ type: 'pong', timestamp: 1 });

    // The sockets Alice keeps still answer.
    second.send({ type: 'ping', timestamp: 2 });
    expect(await second.next((frame) => frame.type === 'pong')).toEqual({ type: 'pong', timestamp: 2 });

    first.close();
    await first.closed;
    await serverHolds(2);
    const replacement = await chatting(alice, alicesDoc);
    replacement.send({ type: 'ping', timestamp: 3 });
    expect(await replacement.next((frame) => frame.type === 'pong')).toEqual({ type: 'pong', timestamp: 3 });

    const oneTooMany = await openChatSocket(chatUrl(base, { documentId: alicesDoc }, alice.token));
    expect((await oneTooMany.closed).code).toBe(4429);

    for (const socket of [second, replacement, bobs]) socket.close();
    await Promise.all([second.closed, replacement.closed, bobs.closed]);
    await serverHolds(0);
  });

  it('gives the place back when the server closes a socket (signed out elsewhere)', async () => {
    const carol = await createSignedInUser(t, { email: 'carol.tabs@example.com' });
    const carolsDoc = (await createDocument(t, carol, { title: 'Carol’s plan' })).uuid;
    const sockets = [await chatting(carol, carolsDoc), await chatting(carol, carolsDoc)];
    await t.storage.sessions.deleteForUser(carol.user.id);
    for (const socket of sockets) expect((await socket.closed).code).toBe(4401);

    // Signed in again, Carol's two new sockets fit: the closed ones left their places.
    const { token } = await new SessionService(t.storage, t.config.sessions, () => new Date()).issue(
      { client: 'app', token: undefined, ip: '127.0.0.1', userAgent: 'vitest' },
      { user: carol.user, authenticated: true, method: 'password' },
    );
    const again = { ...carol, token, headers: { 'x-session-token': token } };
    const reopened = [await chatting(again, carolsDoc), await chatting(again, carolsDoc)];
    for (const socket of reopened) socket.close();
    await Promise.all(reopened.map((socket) => socket.closed));
  });
});
