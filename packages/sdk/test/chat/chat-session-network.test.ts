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

describe('C48 an answer owed after a reconnect', () => {
  /** "A" stored (echoed) and half answered, then the socket drops; the reconnect's history is asked. */
  function droppedMidAnswer() {
    const chat = setup();
    const { session, server, clock } = chat;
    connectStable(chat);
    session.send('A');
    server.last.send({ type: 'human', content: 'A', client_id: 'id-1' });
    server.last.send({ type: 'ai', content: 'Half', message_id: 'm2' });
    server.last.drop();
    clock.advance(1_500);
    expect(frames(server, 'history')).toHaveLength(2);
    return chat;
  }
  const owed = [{ id: 'm1', role: 'user', content: 'A', client_id: 'id-1' }];
  const answered = [...owed, { id: 'm2', role: 'ai', content: 'Half and the rest.' }];

  it('C48: history ending in the user message is asked again after 1, 2, 4 and 8 s, quietly, until the answer is there', () => {
    const { session, server, clock } = droppedMidAnswer();
    server.last.send({ type: 'history_response', messages: owed });
    expect(session.getSnapshot()).toMatchObject({ historyLoading: false, loading: false });
    for (const [delay, asked] of [
      [1_000, 3],
      [2_000, 4],
      [4_000, 5],
      [8_000, 6],
      [8_000, 7],
    ] as const) {
      clock.advance(delay - 1);
      expect(frames(server, 'history')).toHaveLength(asked - 1);
      clock.advance(1);
      expect(frames(server, 'history')).toHaveLength(asked);
      // Quiet: no "Loading history", and sending stays possible.
      expect(session.getSnapshot()).toMatchObject({
        historyLoading: false,
        loading: false,
        historyWarning: null,
      });
      if (asked < 7) server.last.send({ type: 'history_response', messages: owed });
    }
    server.last.send({ type: 'history_response', messages: answered });
    expect(session.getSnapshot().messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'A'],
      ['ai', 'Half and the rest.'],
    ]);
    clock.advance(60_000);
    expect(frames(server, 'history')).toHaveLength(7);
  });

  it('C48: stops 2 minutes after the message was first seen owed, and never waits for the same one twice', () => {
    const { server, clock } = droppedMidAnswer();
    const answer = () => server.last.send({ type: 'history_response', messages: owed });
    answer();
    // Every request is answered at once, still without the answer.
    let asked = frames(server, 'history').length;
    for (let second = 0; second < 180; second += 1) {
      clock.advance(1_000);
      if (frames(server, 'history').length > asked) answer();
      asked = frames(server, 'history').length;
    }
    // At 1, 3, 7, 15, 23 … 119 s: 17 requests; the next would be past 120 s.
    expect(frames(server, 'history')).toHaveLength(2 + 17);
    // A reconnect's history still ends in the same message: nothing more is asked.
    server.last.drop();
    clock.advance(1_500);
    expect(frames(server, 'history')).toHaveLength(20);
    answer();
    clock.advance(60_000);
    expect(frames(server, 'history')).toHaveLength(20);
  });

  it('C48: a new owed message starts again; a close stops the asking and the next open resumes it', () => {
    const { session, server, clock } = droppedMidAnswer();
    server.last.send({ type: 'history_response', messages: owed });
    clock.advance(1_000);
    expect(frames(server, 'history')).toHaveLength(3);
    server.last.drop();
    clock.advance(60_000);
    // Only the reconnect's own request (C47), half a second after it opened.
    expect(frames(server, 'history')).toHaveLength(4);
    expect(session.getSnapshot().status).toBe('connected');
    server.last.send({
      type: 'history_response',
      messages: [...answered, { id: 'm3', role: 'user', content: 'B', client_id: 'id-9' }],
    });
    clock.advance(1_000);
    expect(frames(server, 'history')).toHaveLength(5);
  });

  it('C48: a history that ends in an answer or a note asks nothing more', () => {
    const { server, clock } = droppedMidAnswer();
    server.last.send({
      type: 'history_response',
      messages: [...owed, { id: 'm2', role: 'system', content: 'Too many AI requests.' }],
    });
    clock.advance(60_000);
    expect(frames(server, 'history')).toHaveLength(2);
  });
});

describe('C48 a resend the server already had', () => {
  it('C48: end_of_response {duplicate} asks history quietly, and the answer is followed until it is there', () => {
    const chat = setup();
    const { session, server, clock } = chat;
    connectStable(chat);
    // "A" reaches the server, but the socket drops before its echo; the reopen's history does not hold it yet.
    session.send('A');
    server.last.drop();
    clock.advance(1_500);
    server.last.send({ type: 'history_response', messages: [] });
    expect(messages(server)).toEqual([
      ['A', 'id-1'],
      ['A', 'id-1'],
    ]);
    const asked = frames(server, 'history').length;
    // Stored meanwhile from the first socket: the server answers the resend as a duplicate.
    server.last.send({ type: 'end_of_response', duplicate: true, client_id: 'id-1' });
    expect(frames(server, 'history')).toHaveLength(asked + 1);
    expect(session.getSnapshot()).toMatchObject({ historyLoading: false, loading: false });
    server.last.send({
      type: 'history_response',
      messages: [{ id: 'm1', role: 'user', content: 'A', client_id: 'id-1' }],
    });
    clock.advance(1_000);
    expect(frames(server, 'history')).toHaveLength(asked + 2);
    server.last.send({
      type: 'history_response',
      messages: [
        { id: 'm1', role: 'user', content: 'A', client_id: 'id-1' },
        { id: 'm2', role: 'ai', content: 'The answer.' },
      ],
    });
    expect(session.getSnapshot().messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'A'],
      ['ai', 'The answer.'],
    ]);
  });
});
