import { CHAT_TEXTS, type ChatStreamEvent } from '@planwright/sdk';
import type { FakeServerSocket } from '@planwright/sdk/testing';
import { describe, expect, it } from 'vitest';
import { setup } from './harness.js';

/** A small seeded PRNG (mulberry32), so a failing run can be replayed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface ServerEntry {
  role: 'user' | 'ai';
  content: string;
  clientId?: string;
  id: number;
  complete: boolean;
}

const answerTo = (text: string) => `Answer to ${text}: ${'lorem ipsum '.repeat(1 + (text.length % 4))}done.`;

/**
 * C39: 200 streamed answers while the connection drops at seeded random points. The fake server de-duplicates by
 * client id (counting duplicates), streams cumulative chunks one answer at a time, and serves history from its log.
 */
function runChaos(seed: number) {
  const random = prng(seed);
  const { session, server, clock, events } = setup({ random });
  const log: ServerEntry[] = [];
  const receivedCount = new Map<string, number>();
  const receivedOrder: string[] = [];
  let nextId = 1;
  let completed = 0;

  server.onConnection = (socket: FakeServerSocket) => {
    const backlog: { text: string }[] = [];
    let busy = false;
    const streamNext = () => {
      const job = backlog.shift();
      if (!job) {
        busy = false;
        return;
      }
      busy = true;
      const full = answerTo(job.text);
      const entry: ServerEntry = { role: 'ai', content: '', id: nextId++, complete: false };
      const cuts: number[] = [];
      for (let at = 0; at < full.length; ) {
        at = Math.min(full.length, at + 1 + Math.floor(random() * 12));
        cuts.push(at);
      }
      let index = 0;
      const tick = () => {
        if (!socket.isOpen) return;
        const cut = cuts[index++];
        if (cut !== undefined) {
          if (entry.content === '') log.push(entry);
          entry.content = full.slice(0, cut);
          socket.send({ type: 'ai', content: entry.content, message_id: String(entry.id) });
          clock.setTimeout(tick, 1 + Math.floor(random() * 20));
          return;
        }
        entry.complete = true;
        completed += 1;
        socket.send({ type: 'end_of_response' });
        streamNext();
      };
      clock.setTimeout(tick, 1 + Math.floor(random() * 20));
    };
    socket.onFrame = (text) => {
      const frame = JSON.parse(text) as { type: string; message?: string; client_id?: string };
      if (frame.type === 'history') {
        socket.send({
          type: 'history_response',
          messages: log.map((e) => ({ id: e.id, role: e.role, content: e.content, client_id: e.clientId })),
        });
      }
      if (frame.type !== 'message' || !frame.client_id || frame.message === undefined) return;
      const seen = receivedCount.get(frame.client_id) ?? 0;
      receivedCount.set(frame.client_id, seen + 1);
      if (seen > 0) return;
      receivedOrder.push(frame.client_id);
      log.push({
        role: 'user',
        content: frame.message,
        clientId: frame.client_id,
        id: nextId++,
        complete: true,
      });
      backlog.push({ text: frame.message });
      if (!busy) streamNext();
    };
  };

  let maxQueued = 0;
  session.subscribe(() => {
    maxQueued = Math.max(maxQueued, session.getSnapshot().queued);
  });
  session.connect();

  let sent = 0;
  let refused = 0;
  let lastSendAt = -Infinity;
  for (let step = 0; completed < 200 && step < 2_000_000; step++) {
    clock.advance(5);
    const socket = server.connections.at(-1);
    const roll = random();
    if (socket?.isOpen && roll < 0.004) socket.drop();
    else if (socket?.isOpen && roll < 0.0045) socket.close(1000);
    const snap = session.getSnapshot();
    if (!snap.loading && clock.now() - lastSendAt >= 50) {
      const result = session.send(`q${sent + refused}`);
      lastSendAt = clock.now();
      if (result.ok) sent += 1;
      else {
        expect(result.reason).toBe('queue_full');
        refused += 1;
      }
    }
  }
  // Let everything queued or streaming settle on a stable connection.
  for (let i = 0; i < 400 && (session.getSnapshot().queued > 0 || session.getSnapshot().loading); i++) {
    clock.advance(50);
  }
  const connections = server.connections.length;
  return {
    session,
    log,
    receivedCount,
    receivedOrder,
    completed,
    maxQueued,
    events,
    sent,
    refused,
    connections,
  };
}

describe('C39 chaos: drops during 200 streamed answers', () => {
  it.each([1, 7, 2026])('C39 C11 C12: seed %i — nothing lost, nothing sent twice, queue bounded', (seed) => {
    const { session, log, receivedCount, receivedOrder, completed, maxQueued, events, refused, connections } =
      runChaos(seed);
    // The run really exercised drops, interrupted streams and a full queue.
    expect(connections).toBeGreaterThan(5);
    // (History after each reconnect, C47, replaces an interrupted copy: count the interruptions seen.)
    expect(events.filter((e) => e.type === 'end' && e.interrupted).length).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
    const snap = session.getSnapshot();
    expect(completed).toBeGreaterThanOrEqual(200);
    expect(maxQueued).toBeLessThanOrEqual(100);
    expect(snap.queued).toBe(0);

    // Sent twice: the server never saw a client id more than once.
    expect([...receivedCount.values()].every((count) => count === 1)).toBe(true);

    const users = snap.messages.filter((m) => m.role === 'user');
    const failed = users.filter((m) => m.metadata.delivery === 'failed').map((m) => m.metadata.clientId);
    const delivered = users.filter((m) => m.metadata.delivery !== 'failed').map((m) => m.metadata.clientId);
    // Lost: every user message the client shows as delivered reached the server, in the same order, and a
    // message shown as failed never did (the user was told to send it again).
    expect(delivered).toEqual(receivedOrder);
    for (const id of failed) expect(receivedCount.has(id ?? '')).toBe(false);
    expect(new Set(users.map((m) => m.metadata.clientId)).size).toBe(users.length);
    if (failed.length > 0)
      expect(snap.messages.some((m) => m.content === CHAT_TEXTS.unableToReconnect)).toBe(true);

    // The transcript matches the server's log: same user/ai sequence, complete answers exact, and an interrupted
    // answer holds exactly what was streamed before the drop.
    const shown = snap.messages.filter((m) => m.role !== 'system').map((m) => [m.role, m.content]);
    expect(shown).toEqual(log.map((e) => [e.role, e.content]));
    expect(snap.messages.some((m) => m.isPartial)).toBe(false);

    // Deltas: concatenated per message they rebuild each streamed answer (no reset was needed).
    const byId = new Map<string, string>();
    for (const event of events as ChatStreamEvent[]) {
      expect(event.type).not.toBe('reset');
      if (event.type === 'delta') byId.set(event.messageId, (byId.get(event.messageId) ?? '') + event.text);
    }
    for (const message of snap.messages) {
      if (message.role === 'ai' && byId.has(message.id)) expect(byId.get(message.id)).toBe(message.content);
    }
  });
});
