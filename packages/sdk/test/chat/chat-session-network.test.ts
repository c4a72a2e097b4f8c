import { describe, expect, it } from 'vitest';
import { frames, setup } from './harness.js';

/**
 * C46 (a stalled socket is noticed) and C47 (after a reconnect, history is asked again and a message lost on
 * the wire is sent again with its client id), found by tests/integration/network-faults.test.ts.
 */

const messages = (server: Parameters<typeof frames>[0]) =>
  frames(server, 'message').map((f) => [f.message, f.client_id]);

describe('C46 stalled connection', () => {
  it('C46: a socket silent for 10 s after a ping is dropped and reconnected; a live one stays', () => {
    const { session, server, clock, logs } = setup();
    session.connect();
    clock.advance(0);
    // The fake server answers pings (as the real one does): minutes pass on one connection.
    clock.advance(120_000);
    expect(server.connections).toHaveLength(1);
    expect(session.getSnapshot().status).toBe('connected');

    server.last.answerPings = false;
    clock.advance(30_000);
    expect(frames(server, 'ping')).toHaveLength(5);
    clock.advance(9_999);
    expect(session.getSnapshot().status).toBe('connected');
    clock.advance(1);
    expect(logs).toContain('Chat connection stalled');
    expect(session.getSnapshot()).toMatchObject({
      status: 'error',
      error: 'Chat disconnected. You can send a new message to resume.',
      reconnect: { attempt: 1 },
    });
    clock.advance(1_000);
    expect(server.connections).toHaveLength(2);
    expect(session.getSnapshot().status).toBe('connected');
    // A frame arriving late on the stalled socket is ignored.
    server.connections[0]?.send({ type: 'system', content: 'late' });
    expect(session.getSnapshot().messages.some((m) => m.content === 'late')).toBe(false);
  });

  it('C46: any frame after the ping counts as alive; pongTimeoutMs is an option', () => {
    const { session, server, clock } = setup({ pongTimeoutMs: 2_000 });
    session.connect();
    clock.advance(0);
    server.last.answerPings = false;
    clock.advance(30_000);
    clock.advance(1_000);
    server.last.send({ type: 'ai', content: 'still here' });
    clock.advance(5_000);
    expect(server.connections).toHaveLength(1);
    clock.advance(24_000 + 2_000);
    expect(server.last.closeCode).toBe(1000);
    expect(session.getSnapshot().reconnect).toMatchObject({ attempt: 1 });
  });
});

/** Connects, answers the first history request with none, and waits out the stabilisation (C1, C17). */
function connectStable({ session, server, clock }: ReturnType<typeof setup>): void {
  session.connect();
  clock.advance(500);
  server.last.send({ type: 'history_response', messages: [] });
  clock.advance(5_000);
}

describe('C47 resynchronisation after a reconnect', () => {
  it('C47: a message lost on the wire is sent again with its client id, before the queue, once', () => {
    const chat = setup();
    const { session, server, clock } = chat;
    connectStable(chat);
    // "A" is handed to the socket, then the connection drops before the server stored it (no echo).
    session.send('A');
    server.last.drop();
    expect(session.send('B').ok).toBe(true);
    clock.advance(1_000);
    expect(session.getSnapshot().status).toBe('connected');
    // B waits for history: A has to go first.
    expect(messages(server)).toEqual([['A', 'id-1']]);
    clock.advance(500);
    expect(frames(server, 'history')).toHaveLength(2);
    server.last.send({ type: 'history_response', messages: [] });
    expect(messages(server)).toEqual([
      ['A', 'id-1'],
      ['A', 'id-1'],
      ['B', 'id-2'],
    ]);
    const users = session.getSnapshot().messages.filter((m) => m.role === 'user');
    expect(users.map((m) => [m.content, m.metadata.delivery])).toEqual([
      ['A', 'sent'],
      ['B', 'sent'],
    ]);
    // Stored now (echo): a later drop sends nothing again.
    server.last.send({ type: 'human', content: 'A', client_id: 'id-1' });
    server.last.send({ type: 'human', content: 'B', client_id: 'id-2' });
    clock.advance(5_000);
    server.last.drop();
    clock.advance(1_500);
    expect(messages(server)).toHaveLength(3);
  });

  it('C47: a message history already holds is not sent again; the stored answer replaces the interrupted one', () => {
    const chat = setup();
    const { session, server, clock } = chat;
    connectStable(chat);
    session.send('A');
    server.last.send({ type: 'ai', content: 'Half', message_id: 'm2' });
    server.last.drop();
    expect(session.getSnapshot().messages.at(-1)).toMatchObject({
      content: 'Half',
      metadata: { interrupted: true },
    });
    clock.advance(1_500);
    server.last.send({
      type: 'history_response',
      messages: [
        { id: 'm1', role: 'user', content: 'A', client_id: 'id-1' },
        { id: 'm2', role: 'ai', content: 'Half and the rest.' },
      ],
    });
    expect(messages(server)).toHaveLength(1);
    expect(session.getSnapshot().messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'A'],
      ['ai', 'Half and the rest.'],
    ]);
  });

  it('C47: without a history answer in 10 s the held queue is sent anyway', () => {
    const { session, server, clock } = setup();
    session.connect();
    clock.advance(5_500);
    server.last.send({ type: 'history_response', messages: [] });
    session.send('A');
    server.last.drop();
    session.send('B');
    clock.advance(1_500);
    expect(messages(server).map(([text]) => text)).toEqual(['A']);
    clock.advance(10_000);
    expect(messages(server).map(([text]) => text)).toEqual(['A', 'B']);
  });
});
