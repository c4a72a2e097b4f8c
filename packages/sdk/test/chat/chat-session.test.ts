import { CHAT_LIMIT_TEXTS, CHAT_TEXTS, chatSocketUrl, parseIncomingFrame } from '@planwright/sdk';
import { describe, expect, it } from 'vitest';
import { readCorpusFile } from '../support/corpus.js';
import { frames, setup } from './harness.js';

describe('C3 socket URL', () => {
  it('C3: builds the scoped path with no token and no query, http → ws, https → wss', () => {
    expect(chatSocketUrl('http://h:8000', { documentUuid: 'd' })).toBe('ws://h:8000/ws/document/d/chat/');
    expect(
      chatSocketUrl('https://h/api/', {
        documentUuid: 'd',
        sectionUuid: 's',
        subsectionUuid: 'ss',
        chatId: 'c',
      }),
    ).toBe('wss://h/api/ws/document/d/section/s/subsection/ss/chat/c/');
    expect(chatSocketUrl('http://h', { documentUuid: '../x?y' })).toBe('ws://h/ws/document/..%2Fx%3Fy/chat/');
    // A base with a query (say one a proxy config left) does not carry it into the socket URL.
    expect(chatSocketUrl('http://h/p?token=old#x', { documentUuid: 'd' })).toBe(
      'ws://h/p/ws/document/d/chat/',
    );
  });
});

describe('C5 C36 C40 incoming frames', () => {
  it('C5: matches types case-insensitively and reads history', () => {
    expect(parseIncomingFrame('{"type":"AI","content":"x"}')).toEqual({
      type: 'ai',
      content: 'x',
      messageId: null,
      provider: null,
    });
    expect(parseIncomingFrame('{"type":"Assistant","message":"y"}')).toMatchObject({
      type: 'ai',
      content: 'y',
    });
    expect(parseIncomingFrame('{"type":"End_Of_Response"}')).toEqual({
      type: 'end_of_response',
      duplicate: false,
      interrupted: false,
    });
    expect(parseIncomingFrame('{"type":"end_of_response","duplicate":true}')).toEqual({
      type: 'end_of_response',
      duplicate: true,
      interrupted: false,
    });
    expect(parseIncomingFrame('{"type":"end_of_response","interrupted":true}')).toMatchObject({
      interrupted: true,
    });
    // Anything but true is no duplicate.
    expect(parseIncomingFrame('{"type":"end_of_response","duplicate":"yes"}')).toMatchObject({
      duplicate: false,
    });
    const history = parseIncomingFrame(
      JSON.stringify({
        type: 'HISTORY_RESPONSE',
        messages: [
          { role: 'human', content: 'q' },
          { type: 'ai', content: 'a' },
          { role: 'robot', content: 'z' },
          7,
        ],
      }),
    );
    expect(history).toMatchObject({ type: 'history', messages: [{ role: 'user' }, { role: 'ai' }] });
  });

  it('C36: hostile frames give a typed failure, never a throw', () => {
    const hostile = JSON.parse(readCorpusFile('hostile-strings/blns.json')) as string[];
    const inputs: unknown[] = [
      ...hostile,
      ...hostile.map((s) => JSON.stringify({ type: s, content: s })),
      null,
      42,
      '{"type":1}',
      '{"type":"tool_proposal","tool_id":"x","tool_name":"rm_rf","payload":{}}',
      '{"type":"ai","content":{"a":1}}',
      '{"__proto__":{"type":"ai"}}',
    ];
    for (const input of inputs) {
      const result = parseIncomingFrame(input);
      expect(typeof result.type).toBe('string');
    }
    expect(
      parseIncomingFrame('{"type":"tool_proposal","tool_id":"x","tool_name":"rm_rf","payload":{}}').type,
    ).toBe('invalid');
    expect(parseIncomingFrame('{"type":"weird"}')).toEqual({ type: 'unknown', rawType: 'weird' });
  });

  it('C36: a session survives hostile frames', () => {
    const { session, server, clock, logs } = setup();
    session.connect();
    clock.advance(0);
    server.last.send('not json');
    server.last.send({ type: 'ai' });
    server.last.send({ type: 'whatever', content: 'x' });
    expect(session.getSnapshot().messages).toEqual([]);
    expect(logs.filter((l) => l.startsWith('Ignored chat frame'))).toHaveLength(2);
  });
});

describe('C6 C7 open, authenticate and ping', () => {
  it('C6 C7: idle → connecting → connected; authenticate first, then a ping every 30 s', () => {
    const { session, server, clock } = setup();
    expect(session.getSnapshot().status).toBe('idle');
    session.connect();
    expect(session.getSnapshot().status).toBe('connecting');
    expect(server.last.url).toBe('ws://localhost:8000/ws/document/doc-1/section/sec-1/chat/');
    clock.advance(0);
    expect(session.getSnapshot().status).toBe('connected');
    expect(JSON.parse(server.last.received[0] ?? '')).toEqual({ type: 'authenticate', token: 'tok-1' });
    clock.advance(29_999);
    expect(frames(server, 'ping')).toHaveLength(0);
    clock.advance(1);
    expect(frames(server, 'ping')).toEqual([{ type: 'ping', timestamp: clock.now() }]);
    clock.advance(30_000);
    expect(frames(server, 'ping')).toHaveLength(2);
    session.disconnect();
    clock.advance(120_000);
    expect(frames(server, 'ping')).toHaveLength(2);
  });

  it('C31: snapshots are frozen and change identity only on change; subscribers are told', () => {
    const { session, clock } = setup();
    let calls = 0;
    const stop = session.subscribe(() => calls++);
    const before = session.getSnapshot();
    expect(Object.isFrozen(before)).toBe(true);
    expect(session.getSnapshot()).toBe(before);
    session.connect();
    clock.advance(0);
    expect(calls).toBeGreaterThan(0);
    expect(session.getSnapshot()).not.toBe(before);
    stop();
  });
});

describe('C8 stabilisation and initial error suppression', () => {
  it('C8: stabilizing for 5 s after open', () => {
    const { session, clock } = setup();
    session.connect();
    clock.advance(0);
    expect(session.getSnapshot().stabilizing).toBe(true);
    clock.advance(4_999);
    expect(session.getSnapshot().stabilizing).toBe(true);
    clock.advance(1);
    expect(session.getSnapshot().stabilizing).toBe(false);
  });

  it('C8: a drop while stabilizing reconnects quietly; after it, the disconnect error shows', () => {
    const { session, server, clock } = setup();
    session.connect();
    clock.advance(6_000);
    server.last.drop();
    expect(session.getSnapshot()).toMatchObject({ status: 'error', error: CHAT_TEXTS.disconnectedResume });
    clock.advance(1_000);
    expect(session.getSnapshot().status).toBe('connected');
    expect(session.getSnapshot().error).toBeNull();
    clock.advance(1_000);
    server.last.drop();
    expect(session.getSnapshot()).toMatchObject({ status: 'connecting', error: null });
  });

  it('C8 C23: first-connection 1006 failures within 3 s are suppressed and retried, later ones shown', () => {
    const { session, server, clock } = setup({ acceptDelayMs: 60_000 });
    session.connect();
    server.last.close(1006);
    expect(session.getSnapshot()).toMatchObject({
      status: 'connecting',
      error: null,
      reconnect: { attempt: 1 },
    });
    clock.advance(1_000);
    expect(server.connections).toHaveLength(2);
    server.last.close(1006);
    expect(session.getSnapshot()).toMatchObject({ status: 'connecting', error: null });
    clock.advance(2_000);
    expect(server.connections).toHaveLength(3);
    server.last.close(1006);
    expect(session.getSnapshot()).toMatchObject({ status: 'error', error: CHAT_TEXTS.disconnectedResume });
  });
});

describe('C9 C10 reconnect and give up', () => {
  it('C9 C50: delays 1, 2, 4, 8, 16, then 30 s capped; it never gives up while the page is visible', () => {
    const { session, server, clock, logs } = setup();
    session.connect();
    clock.advance(10_000);
    const delays: number[] = [];
    for (let i = 0; i < 8; i++) {
      server.last.drop();
      const at = session.getSnapshot().reconnect?.at ?? 0;
      delays.push(at - clock.now());
      const count = server.connections.length;
      clock.advance(at - clock.now() - 1);
      expect(server.connections).toHaveLength(count);
      clock.advance(1);
      expect(server.connections).toHaveLength(count + 1);
      expect(session.getSnapshot().status).toBe('connected');
    }
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    expect(logs).not.toContain(CHAT_TEXTS.maxReconnectLog);
    expect(session.getSnapshot().messages.some((m) => m.content === CHAT_TEXTS.unableToReconnect)).toBe(
      false,
    );
  });

  it('C9: jitter from the injected random: ±20 % around the base', () => {
    for (const [random, expected] of [
      [0, 800],
      [0.999, 1_200],
    ] as const) {
      const { session, server, clock } = setup({ random: () => random });
      session.connect();
      clock.advance(10_000);
      server.last.drop();
      expect((session.getSnapshot().reconnect?.at ?? 0) - clock.now()).toBe(
        Math.round(1_000 * (0.8 + 0.4 * random)),
      );
      expect(
        Math.abs((session.getSnapshot().reconnect?.at ?? 0) - clock.now() - expected),
      ).toBeLessThanOrEqual(1);
    }
  });

  it('C9: the count resets only after a connection survives the stabilisation window', () => {
    const { session, server, clock } = setup();
    session.connect();
    clock.advance(10_000);
    server.last.drop();
    clock.advance(1_000);
    server.last.drop();
    expect(session.getSnapshot().reconnect?.attempt).toBe(2);
    clock.advance(2_000);
    clock.advance(5_000);
    server.last.drop();
    expect(session.getSnapshot().reconnect?.attempt).toBe(1);
  });

  it('C15: after a normal close, sending a message reconnects and delivers it', () => {
    const { session, server, clock } = setup();
    session.connect();
    clock.advance(10_000);
    server.last.close(1000);
    expect(session.getSnapshot().error).toBe(CHAT_TEXTS.disconnectedResume);
    const count = server.connections.length;
    expect(session.send('again').ok).toBe(true);
    expect(server.connections).toHaveLength(count + 1);
    clock.advance(0);
    expect(frames(server, 'message').map((f) => f.message)).toEqual(['again']);
  });
});

describe('C21 C22 C23 C27 close codes', () => {
  it('C21: a normal close 1000 does not reconnect and says how to resume', () => {
    const { session, server, clock } = setup();
    session.connect();
    clock.advance(10_000);
    server.last.close(1000);
    clock.advance(60_000);
    expect(server.connections).toHaveLength(1);
    expect(session.getSnapshot()).toMatchObject({ status: 'error', error: CHAT_TEXTS.disconnectedResume });
  });

  it('C22: a client disconnect never reconnects', () => {
    const { session, server, clock } = setup();
    session.connect();
    clock.advance(10_000);
    session.disconnect();
    clock.advance(60_000);
    expect(server.connections).toHaveLength(1);
    expect(session.getSnapshot()).toMatchObject({ status: 'closed', error: null });
  });

  it('C23: a first connection refused with another code fails without retry', () => {
    const { session, server, clock } = setup({ acceptDelayMs: 60_000 });
    session.connect();
    server.last.close(1011);
    clock.advance(60_000);
    expect(server.connections).toHaveLength(1);
    expect(session.getSnapshot()).toMatchObject({ status: 'error', error: CHAT_TEXTS.connectFailed });
  });

  it.each([4403, 403])('C27: close %i logs the authentication failure and does not retry', (code) => {
    const { session, server, clock, logs } = setup();
    session.connect();
    clock.advance(0);
    server.last.close(code);
    clock.advance(60_000);
    expect(logs).toContain(CHAT_TEXTS.authFailedLog);
    expect(server.connections).toHaveLength(1);
    expect(session.getSnapshot().status).toBe('error');
  });
});

describe('C27 C41 not found and stop', () => {
  it('C27: close 4404 (nothing at that path) fails without retry and without the auth log', () => {
    const { session, server, clock, logs } = setup();
    session.connect();
    clock.advance(10_000);
    server.last.close(4404);
    clock.advance(120_000);
    expect(server.connections).toHaveLength(1);
    expect(logs).not.toContain(CHAT_TEXTS.authFailedLog);
    expect(session.getSnapshot()).toMatchObject({ status: 'error', error: CHAT_TEXTS.connectFailed });
  });

  it('C27b: close 4429 (too many chat connections for the account) fails without retry, saying why', () => {
    const { session, server, clock } = setup();
    session.connect();
    clock.advance(10_000);
    server.last.close(4429);
    clock.advance(120_000);
    expect(server.connections).toHaveLength(1);
    expect(session.getSnapshot()).toMatchObject({
      status: 'error',
      error: CHAT_LIMIT_TEXTS.tooManyConnections,
    });
  });

  it('C41: stop() sends a stop frame only while an answer is owed', () => {
    const { session, server, clock } = setup();
    session.connect();
    clock.advance(0);
    expect(session.stop()).toBe(false);
    session.send('long answer please');
    server.last.send({ type: 'ai', content: 'Once upon' });
    expect(session.stop()).toBe(true);
    expect(frames(server, 'stop')).toHaveLength(1);
    expect(frames(server, 'stop')[0]?.client_id).toEqual(expect.any(String));
    server.last.send({ type: 'end_of_response' });
    expect(session.getSnapshot().loading).toBe(false);
    expect(session.stop()).toBe(false);
    expect(frames(server, 'stop')).toHaveLength(1);
  });
});

describe('C28 C29 one connect at a time and chat switch', () => {
  it('C28: connect while connecting or connected opens nothing new', () => {
    const { session, server, clock } = setup();
    session.connect();
    session.connect();
    clock.advance(0);
    session.connect();
    expect(server.connections).toHaveLength(1);
  });

  it('C29: after a switch the new connection waits for the old close, at most 800 ms', () => {
    const { session, server, clock } = setup({ manualCloseAck: true });
    session.connect();
    clock.advance(10_000);
    session.switchTo({ chatId: 'chat-2' });
    expect(server.connections).toHaveLength(1);
    clock.advance(799);
    expect(server.connections).toHaveLength(1);
    clock.advance(1);
    expect(server.connections).toHaveLength(2);
    expect(server.last.url).toContain('/section/sec-1/chat/chat-2/');
    expect(session.getSnapshot().error).toBeNull();
  });

  it('C29: a prompt close reconnects at once, without a disconnect error', () => {
    const { session, server, clock } = setup();
    session.connect();
    clock.advance(10_000);
    session.switchTo({ sectionUuid: 'sec-2' });
    expect(server.connections).toHaveLength(2);
    clock.advance(0);
    expect(session.getSnapshot()).toMatchObject({ status: 'connected', error: null });
    expect(session.getSnapshot().scope.sectionUuid).toBe('sec-2');
  });
});

describe('C11–C16 sending', () => {
  it('C13 C11: sends message with options on/off, scope context and a client id', () => {
    const { session, server, clock } = setup();
    session.connect();
    clock.advance(0);
    const result = session.send('Draft it', { webAccess: true });
    expect(result).toEqual({ ok: true, messageId: 'user-id-1', clientId: 'id-1', queued: false });
    expect(frames(server, 'message')).toEqual([
      {
        type: 'message',
        message: 'Draft it',
        client_id: 'id-1',
        options: { web_access: 'on', research: 'off' },
        context: { document_uuid: 'doc-1', section_uuid: 'sec-1', subsection_uuid: null, chat_id: null },
      },
    ]);
    expect(session.getSnapshot().messages[0]).toMatchObject({ role: 'user', metadata: { delivery: 'sent' } });
    expect(session.getSnapshot().loading).toBe(true);
  });

  it('C14: blank messages and sends while loading are ignored', () => {
    const { session, server, clock } = setup();
    session.connect();
    clock.advance(0);
    expect(session.send('  \n ')).toEqual({ ok: false, reason: 'blank' });
    session.send('one');
    expect(session.send('two')).toEqual({ ok: false, reason: 'busy' });
    server.last.send({ type: 'end_of_response' });
    expect(session.send('three').ok).toBe(true);
    expect(frames(server, 'message').map((f) => f.message)).toEqual(['one', 'three']);
  });

  it('C16: no token → "You are not authenticated. Please log in."', () => {
    const { session, auth, server } = setup();
    auth.token = null;
    session.connect();
    expect(server.connections).toHaveLength(0);
    expect(session.getSnapshot().error).toBe(CHAT_TEXTS.notAuthenticated);
    expect(session.send('hi')).toEqual({ ok: false, reason: 'unauthenticated' });
  });

  it('C33: without queueing, sending disconnected → "AI Agent is not connected"', () => {
    const { session } = setup({ queueWhileDisconnected: false });
    expect(session.send('hi')).toEqual({ ok: false, reason: 'not_connected' });
    expect(session.getSnapshot().error).toBe(CHAT_TEXTS.notConnected);
  });

  it('C12: queued while disconnected, flushed in order on connect, bounded', () => {
    const { session, server, clock } = setup({ queueLimit: 3 });
    session.connect();
    clock.advance(10_000);
    server.last.drop();
    for (const text of ['a', 'b', 'c']) expect(session.send(text)).toMatchObject({ ok: true, queued: true });
    expect(session.send('d')).toEqual({ ok: false, reason: 'queue_full' });
    expect(session.getSnapshot().queued).toBe(3);
    expect(session.getSnapshot().messages.at(-1)).toMatchObject({
      role: 'system',
      content: CHAT_TEXTS.sendFailed,
    });
    clock.advance(1_000);
    expect(session.getSnapshot().queued).toBe(0);
    const last = server.last.received.map((t) => JSON.parse(t) as { type: string; message?: string });
    expect(last.map((f) => f.type)).toEqual(['authenticate', 'message', 'message', 'message']);
    expect(last.slice(1).map((f) => f.message)).toEqual(['a', 'b', 'c']);
  });

  it('C32: a send that throws marks the message failed with a system message', () => {
    const { session, server, clock } = setup();
    session.connect();
    clock.advance(0);
    server.last.failSends = true;
    session.send('x');
    const messages = session.getSnapshot().messages;
    expect(messages[0]?.metadata.delivery).toBe('failed');
    expect(messages[1]).toMatchObject({ role: 'system', content: CHAT_TEXTS.sendFailed });
  });
});

describe('C17 C18 C30 history', () => {
  it('C17 C47: requested 500 ms after connect, once per scope and again after a reconnect, forceable', () => {
    const { session, server, clock } = setup();
    session.connect();
    clock.advance(499);
    expect(frames(server, 'history')).toHaveLength(0);
    clock.advance(1);
    expect(frames(server, 'history')).toHaveLength(1);
    expect(session.getSnapshot().historyLoading).toBe(true);
    server.last.send({
      type: 'history_response',
      messages: [
        { role: 'user', content: 'old', id: 1 },
        { role: 'ai', content: 'old answer', id: 2 },
      ],
    });
    expect(session.getSnapshot().historyLoading).toBe(false);
    expect(session.getSnapshot().messages.map((m) => m.content)).toEqual(['old', 'old answer']);
    clock.advance(10_000);
    clock.advance(5_000);
    expect(frames(server, 'history')).toHaveLength(1);
    server.last.drop();
    clock.advance(2_000);
    // C47: answers may have finished while the socket was down; the reconnect asks again.
    expect(frames(server, 'history')).toHaveLength(2);
    session.requestHistory({ force: true });
    expect(frames(server, 'history')).toHaveLength(3);
    session.switchTo({ subsectionUuid: 'sub-1' });
    clock.advance(500);
    expect(frames(server, 'history')).toHaveLength(4);
  });

  it('C30: a 10 s time-out shows the warning, cleared 5 s later when connected', () => {
    const { session, clock } = setup();
    session.connect();
    clock.advance(500);
    clock.advance(9_999);
    expect(session.getSnapshot().historyWarning).toBeNull();
    clock.advance(1);
    expect(session.getSnapshot()).toMatchObject({
      historyWarning: CHAT_TEXTS.historyTimeout,
      historyLoading: false,
    });
    clock.advance(4_999);
    expect(session.getSnapshot().historyWarning).toBe(CHAT_TEXTS.historyTimeout);
    clock.advance(1);
    expect(session.getSnapshot().historyWarning).toBeNull();
  });

  it('C30: the warning stays while disconnected', () => {
    const { session, server, clock } = setup();
    session.connect();
    clock.advance(10_500);
    server.last.close(1000);
    clock.advance(5_000);
    expect(session.getSnapshot().historyWarning).toBe(CHAT_TEXTS.historyTimeout);
  });

  it('C18: history keeps messages sent since it was asked, without duplicates', () => {
    const { session, server, clock } = setup();
    session.connect();
    clock.advance(500);
    session.send('new');
    server.last.send({
      type: 'history',
      messages: [
        { role: 'user', content: 'old' },
        { role: 'user', content: 'new', client_id: 'id-1' },
      ],
    });
    expect(session.getSnapshot().messages.map((m) => m.content)).toEqual(['old', 'new']);
  });
});

describe('C19 C20 streaming', () => {
  it('C19: cumulative content emits only the new suffix; C20 end_of_response ends the stream', () => {
    const { session, server, clock, events } = setup();
    session.connect();
    clock.advance(0);
    session.send('q');
    for (const content of ['Hel', 'Hello', 'Hello', 'Hello, world'])
      server.last.send({ type: 'ai', content });
    expect(events).toEqual([
      { type: 'delta', messageId: 'ai-id-2', text: 'Hel' },
      { type: 'delta', messageId: 'ai-id-2', text: 'lo' },
      { type: 'delta', messageId: 'ai-id-2', text: ', world' },
    ]);
    expect(session.getSnapshot().messages.at(-1)).toMatchObject({ content: 'Hello, world', isPartial: true });
    server.last.send({ type: 'end_of_response' });
    expect(session.getSnapshot().messages.at(-1)).toMatchObject({ isPartial: false });
    expect(session.getSnapshot().loading).toBe(false);
    expect(events.at(-1)).toEqual({ type: 'end', messageId: 'ai-id-2', interrupted: false });
  });

  it('C19: a stale shorter frame is ignored; a non-prefix update resets the message', () => {
    const { session, server, clock, events } = setup();
    session.connect();
    clock.advance(0);
    server.last.send({ type: 'ai', content: 'abcdef' });
    server.last.send({ type: 'ai', content: 'abc' });
    expect(session.getSnapshot().messages.at(-1)?.content).toBe('abcdef');
    server.last.send({ type: 'ai', content: 'xyz' });
    expect(session.getSnapshot().messages.at(-1)?.content).toBe('xyz');
    expect(events.at(-1)).toEqual({ type: 'reset', messageId: 'ai-id-1', content: 'xyz' });
  });

  it('C20: a drop mid-stream ends it as interrupted', () => {
    const { session, server, clock } = setup();
    session.connect();
    clock.advance(0);
    server.last.send({ type: 'ai', content: 'par' });
    server.last.drop();
    expect(session.getSnapshot().messages.at(-1)).toMatchObject({
      isPartial: false,
      metadata: { interrupted: true },
    });
  });
});

describe('C24 C25 C26 tools and proposals', () => {
  it('C24 C25: generating → awaiting_approval → executing → idle, message cleared after 2 s', () => {
    const { session, server, clock } = setup();
    session.connect();
    clock.advance(0);
    server.last.send({ type: 'tool_generating' });
    expect(session.getSnapshot().toolGenerating).toBe(true);
    server.last.send({
      type: 'tool_proposal',
      tool_id: 't1',
      tool_name: 'propose_full_subsection',
      payload: {},
    });
    expect(session.getSnapshot().toolExecution).toEqual({
      state: 'awaiting_approval',
      message: CHAT_TEXTS.reviewProposed,
      toolName: 'propose_full_subsection',
    });
    session.acceptProposal('t1');
    server.last.send({ type: 'Tool_Executing', tool_name: 'propose_full_subsection', content: 'Applying' });
    expect(session.getSnapshot().toolExecution).toMatchObject({ state: 'executing', message: 'Applying' });
    server.last.send({ type: 'tool_complete', content: 'Done' });
    expect(session.getSnapshot().toolExecution).toMatchObject({ state: 'idle', message: 'Done' });
    clock.advance(1_999);
    expect(session.getSnapshot().toolExecution.message).toBe('Done');
    clock.advance(1);
    expect(session.getSnapshot().toolExecution.message).toBeNull();
  });

  it('C26: accept and reject set the texts and send tool_approval; a second decision does nothing', () => {
    const { session, server, clock } = setup();
    session.connect();
    clock.advance(0);
    for (const id of ['t1', 't2', 't1']) {
      server.last.send({
        type: 'tool_proposal',
        tool_id: id,
        tool_name: 'propose_partial_edits',
        payload: { edits: [] },
      });
    }
    expect(session.getSnapshot().proposals).toHaveLength(2);
    expect(session.acceptProposal('t1')).toBe(true);
    expect(session.rejectProposal('t2')).toBe(true);
    expect(session.rejectProposal('t2')).toBe(false);
    expect(session.acceptProposal('t1')).toBe(false);
    expect(session.rejectProposal('t1')).toBe(false);
    expect(session.acceptProposal('nope')).toBe(false);
    expect(session.getSnapshot().proposals.map((p) => [p.status, p.message])).toEqual([
      ['accepted', CHAT_TEXTS.changesApplied],
      ['rejected', CHAT_TEXTS.proposalRejected],
    ]);
    expect(frames(server, 'tool_approval').map((f) => [f.tool_id, f.action])).toEqual([
      ['t1', 'accept'],
      ['t2', 'reject'],
    ]);
  });

  it('C26: a decision made while disconnected is queued and sent on reconnect', () => {
    const { session, server, clock } = setup();
    session.connect();
    clock.advance(10_000);
    server.last.send({
      type: 'tool_proposal',
      tool_id: 't1',
      tool_name: 'propose_full_subsection',
      payload: {},
    });
    server.last.drop();
    session.rejectProposal('t1');
    expect(frames(server, 'tool_approval')).toHaveLength(0);
    clock.advance(1_000);
    expect(frames(server, 'tool_approval')).toEqual([
      expect.objectContaining({ tool_id: 't1', action: 'reject' }),
    ]);
  });
});

describe('C38 echo and C35 dispose', () => {
  it('C38: a human echo of our own client id is not added twice', () => {
    const { session, server, clock } = setup();
    session.connect();
    clock.advance(0);
    session.send('hi');
    server.last.send({ type: 'human', content: 'hi', client_id: 'id-1' });
    server.last.send({ type: 'human', content: 'from another tab' });
    expect(session.getSnapshot().messages.map((m) => m.content)).toEqual(['hi', 'from another tab']);
  });

  it('C35: dispose stops every timer and ignores later calls', () => {
    const { session, server, clock } = setup();
    session.connect();
    clock.advance(0);
    session.dispose();
    expect(clock.pending).toBe(0);
    expect(session.send('x')).toEqual({ ok: false, reason: 'disposed' });
    session.connect();
    expect(server.connections).toHaveLength(1);
  });
});
