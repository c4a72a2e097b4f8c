import type { VisibilitySource } from '@planwright/sdk';
import { describe, expect, it } from 'vitest';
import { frames, setup } from './harness.js';

/** A page whose visibility a test sets, telling the session when it comes back. */
function fakePage() {
  let visible = true;
  const listeners = new Set<() => void>();
  const source: VisibilitySource = {
    isVisible: () => visible,
    onVisible: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return {
    source,
    listeners,
    hide: () => {
      visible = false;
    },
    show: () => {
      visible = true;
      for (const listener of [...listeners]) listener();
    },
    /** `online` or `focus` while visible. */
    wake: () => {
      for (const listener of [...listeners]) listener();
    },
  };
}

describe('C50 reconnecting for as long as the page is visible', () => {
  it('C50: a 60 s outage ends with the chat back and the queued message delivered, nothing sent by the user again', () => {
    const { session, server, clock } = setup();
    session.connect();
    clock.advance(10_000);
    // The server is away: every new connection fails before it opens.
    let down = true;
    server.onConnection = (socket) => {
      if (down) clock.setTimeout(() => socket.drop(), 0);
    };
    server.last.drop();
    expect(session.send('during the outage').ok).toBe(true);
    clock.advance(60_000);
    expect(session.getSnapshot().status).not.toBe('connected');
    down = false;
    clock.advance(30_000);
    expect(session.getSnapshot()).toMatchObject({ status: 'connected', error: null });
    expect(frames(server, 'message').map((f) => f.message)).toEqual(['during the outage']);
  });

  it.each([
    [4400, 'the token in the URL'],
    [4401, 'not authenticated'],
    [4403, 'origin refused'],
    [4404, 'nothing at that path'],
    [4429, 'too many sockets'],
  ])('C50: close %i (%s) is never retried, not even when the page comes back', (code) => {
    const page = fakePage();
    const { session, server, clock } = setup({ visibility: page.source });
    session.connect();
    clock.advance(10_000);
    server.last.close(code);
    clock.advance(600_000);
    page.wake();
    expect(server.connections).toHaveLength(1);
    expect(session.getSnapshot().status).toBe('error');
  });

  it('C50: a due attempt waits while the page is hidden, and runs at once when it is visible again', () => {
    const page = fakePage();
    const { session, server, clock } = setup({ visibility: page.source });
    session.connect();
    clock.advance(10_000);
    page.hide();
    server.last.drop();
    clock.advance(600_000);
    expect(server.connections).toHaveLength(1);
    expect(session.getSnapshot().reconnect).toBeNull();
    page.show();
    expect(server.connections).toHaveLength(2);
    clock.advance(0);
    expect(session.getSnapshot().status).toBe('connected');
  });

  it('C50: online or focus tries at once instead of waiting out the backoff', () => {
    const page = fakePage();
    const { session, server, clock } = setup({ visibility: page.source });
    session.connect();
    clock.advance(10_000);
    for (let i = 0; i < 4; i++) {
      server.last.drop();
      clock.advance((session.getSnapshot().reconnect?.at ?? 0) - clock.now());
    }
    server.last.drop();
    expect((session.getSnapshot().reconnect?.at ?? 0) - clock.now()).toBeGreaterThan(10_000);
    const count = server.connections.length;
    page.wake();
    expect(server.connections).toHaveLength(count + 1);
  });

  it('C50: waking does nothing to a connected, a disconnected or a disposed session', () => {
    const page = fakePage();
    const { session, server, clock } = setup({ visibility: page.source });
    session.connect();
    clock.advance(10_000);
    page.wake();
    session.disconnect();
    page.wake();
    expect(server.connections).toHaveLength(1);
    session.dispose();
    expect(page.listeners.size).toBe(0);
  });

  it('C50: 1001 (the server restarting) reconnects', () => {
    const { session, server, clock } = setup();
    session.connect();
    clock.advance(10_000);
    server.last.close(1001);
    clock.advance(1_000);
    expect(server.connections).toHaveLength(2);
  });
});

describe('C51 the interrupted mark', () => {
  it('C51: an answer stopped by the user is kept and marked interrupted', () => {
    const { session, server, clock, events } = setup();
    session.connect();
    clock.advance(0);
    session.send('long answer please');
    server.last.send({ type: 'ai', content: 'Once upon', message_id: 'a-1' });
    expect(session.stop()).toBe(true);
    server.last.send({ type: 'end_of_response', message_id: 'a-1', interrupted: true });
    const answer = session.getSnapshot().messages.at(-1);
    expect(answer).toMatchObject({ role: 'ai', content: 'Once upon', isPartial: false });
    expect(answer?.metadata.interrupted).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'end', interrupted: true });
  });

  it('C51: a finished answer is not marked; history keeps the server’s mark', () => {
    const { session, server, clock } = setup();
    session.connect();
    clock.advance(0);
    session.send('q');
    server.last.send({ type: 'ai', content: 'Whole', message_id: 'a-1' });
    server.last.send({ type: 'end_of_response', message_id: 'a-1' });
    expect(session.getSnapshot().messages.at(-1)?.metadata.interrupted).toBeUndefined();
    clock.advance(500);
    server.last.send({
      type: 'history_response',
      messages: [
        { id: 'u-1', role: 'user', content: 'q', client_id: 'x' },
        { id: 'a-0', role: 'ai', content: 'Cut', metadata: { interrupted: true } },
        { id: 'a-1', role: 'ai', content: 'Whole', metadata: {} },
      ],
    });
    const [, cut, whole] = session.getSnapshot().messages;
    expect(cut?.metadata.interrupted).toBe(true);
    expect(whole?.metadata.interrupted).toBeUndefined();
  });

  it('C20 C51: a stream lost with the connection is marked interrupted until it resumes', () => {
    const { session, server, clock } = setup();
    session.connect();
    clock.advance(10_000);
    session.send('q');
    server.last.send({ type: 'ai', content: 'Half', message_id: 'a-1' });
    server.last.drop();
    expect(session.getSnapshot().messages.at(-1)?.metadata.interrupted).toBe(true);
  });
});

describe('C52 a streaming answer resumed on the new socket', () => {
  it('C52: the server’s answer so far continues in the same message, unmarked, then ends', () => {
    const { session, server, clock, events } = setup();
    session.connect();
    clock.advance(10_000);
    session.send('q');
    server.last.send({ type: 'ai', content: 'Once', message_id: 'a-1' });
    server.last.drop();
    clock.advance(1_000);
    expect(session.getSnapshot().status).toBe('connected');
    server.last.send({ type: 'ai', content: 'Once upon a', message_id: 'a-1' });
    let answers = session.getSnapshot().messages.filter((m) => m.role === 'ai');
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ content: 'Once upon a', isPartial: true });
    expect(answers[0]?.metadata.interrupted).toBeUndefined();
    // The answer is owed again: sends wait for it (C14).
    expect(session.getSnapshot().loading).toBe(true);
    server.last.send({ type: 'ai', content: 'Once upon a time.', message_id: 'a-1' });
    server.last.send({ type: 'end_of_response', message_id: 'a-1' });
    answers = session.getSnapshot().messages.filter((m) => m.role === 'ai');
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ content: 'Once upon a time.', isPartial: false });
    expect(session.getSnapshot().loading).toBe(false);
    // The deltas rebuild the whole answer across the two sockets.
    const text = events
      .filter((e) => e.type === 'delta')
      .map((e) => (e.type === 'delta' ? e.text : ''))
      .join('');
    expect(text).toBe('Once upon a time.');
  });
});
