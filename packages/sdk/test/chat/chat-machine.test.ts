import { CHAT_LIMIT_TEXTS, CHAT_TEXTS } from '@planwright/sdk';
import { describe, expect, it } from 'vitest';
import {
  type ChatConfig,
  type ChatEffect,
  type ChatEvent,
  type ChatPorts,
  type ChatState,
  type ChatStep,
  chatTransition,
  initialChatState,
} from '../../src/chat/chat-machine.js';

/** The pure transition, driven event by event: no socket, no timer, no clock. */
const CONFIG: ChatConfig = {
  baseUrl: 'https://app.example.com',
  queueLimit: 2,
  queueWhileDisconnected: true,
  pongTimeoutMs: 10_000,
};

function ports(
  overrides: Partial<{ now: number; token: string | null; visible: boolean; random: number }> = {},
) {
  let n = 0;
  const p: ChatPorts = {
    now: overrides.now ?? 1_000_000,
    random: () => overrides.random ?? 0.5,
    createId: () => `id-${++n}`,
    token: () => (overrides.token === undefined ? 'tok' : overrides.token),
    visible: () => overrides.visible ?? true,
  };
  return p;
}

/** Runs events in order from a fresh session; answers the last step and every effect. */
function run(events: readonly ChatEvent[], p: ChatPorts = ports(), from?: ChatState) {
  let state = from ?? initialChatState({ documentUuid: 'doc-1' });
  const effects: ChatEffect[] = [];
  let last: ChatStep = { state, effects: [], output: undefined };
  for (const event of events) {
    last = chatTransition(state, event, CONFIG, p);
    state = last.state;
    effects.push(...last.effects);
  }
  return { state, effects, last };
}

const sent = (effects: readonly ChatEffect[]) =>
  effects.flatMap((e) => (e.type === 'transmit' ? [JSON.parse(e.data) as { type: string }] : []));
const types = (effects: readonly ChatEffect[]) => effects.map((e) => e.type);

/** A session connected on socket 1. */
const connected = () => run([{ type: 'connect' }, { type: 'opened', socket: 1 }]).state;

describe('chatTransition: connection (C6–C10, C16, C21–C23, C27–C29, C50)', () => {
  it.each([
    [
      'C16: no token',
      ports({ token: null }),
      { status: 'error', error: CHAT_TEXTS.notAuthenticated },
      ['watchVisibility'],
    ],
    [
      'C6 C28: a token opens socket 1',
      ports(),
      { status: 'connecting', error: null },
      ['watchVisibility', 'open'],
    ],
  ] as const)('%s', (_, p, view, effectTypes) => {
    const { state, effects } = run([{ type: 'connect' }], p);
    expect(state.view).toMatchObject(view);
    expect(types(effects)).toEqual(effectTypes);
  });

  it('C3 C7 C8 C17: open sends authenticate first, arms ping, stabilisation and the history delay', () => {
    const { state, effects } = run([{ type: 'connect' }, { type: 'opened', socket: 1 }]);
    expect(state.view).toMatchObject({ status: 'connected', stabilizing: true });
    const open = effects.find((e) => e.type === 'open');
    expect(open).toMatchObject({ url: 'wss://app.example.com/ws/document/doc-1/chat/' });
    expect(sent(effects)).toEqual([{ type: 'authenticate', token: 'tok' }]);
    expect(
      effects.filter((e) => e.type === 'startTimer').map((e) => e.type === 'startTimer' && [e.name, e.ms]),
    ).toEqual([
      ['ping', 30_000],
      ['stabilize', 5_000],
      ['history', 500],
    ]);
  });

  it('C28: a second connect while one is open does nothing', () => {
    const { last } = run([{ type: 'connect' }], ports(), connected());
    expect(last.effects).toEqual([]);
  });

  it.each([
    [1006, 'connecting', { attempt: 1, at: 1_001_000 }, 'C8 C9: within stabilisation, quietly'],
    [1001, 'connecting', { attempt: 1, at: 1_001_000 }, 'C50: the server restarting'],
    [1000, 'error', null, 'C21'],
    [4401, 'error', null, 'C27'],
    [4404, 'error', null, 'C27'],
    [4429, 'error', null, 'C27'],
    [4400, 'error', null, 'C50'],
  ] as const)('close %i → %s, reconnect %o (%s)', (code, status, reconnect, _rule) => {
    const { state } = run([{ type: 'closed', socket: 1, code }], ports(), connected());
    expect(state.view.status).toBe(status);
    expect(state.view.reconnect).toEqual(reconnect);
    expect(state.retrying).toBe(reconnect !== null);
  });

  it('C27: 4429 says why; 4401 logs the authentication failure', () => {
    expect(run([{ type: 'closed', socket: 1, code: 4429 }], ports(), connected()).state.view.error).toBe(
      CHAT_LIMIT_TEXTS.tooManyConnections,
    );
    const auth = run([{ type: 'closed', socket: 1, code: 4401 }], ports(), connected());
    expect(auth.effects).toContainEqual({ type: 'log', level: 'error', message: CHAT_TEXTS.authFailedLog });
  });

  it('C50: a due reconnect while hidden waits; the page coming back connects at once', () => {
    const dropped = run([{ type: 'closed', socket: 1, code: 1006 }], ports(), connected()).state;
    const hidden = run([{ type: 'timer', name: 'reconnect' }], ports({ visible: false }), dropped);
    expect(types(hidden.effects)).toEqual([]);
    expect(hidden.state.view).toMatchObject({
      status: 'error',
      error: CHAT_TEXTS.disconnectedResume,
      reconnect: null,
    });
    const back = run([{ type: 'visible' }], ports(), hidden.state);
    expect(types(back.effects)).toContain('open');
    expect(back.state.socket).toBe(2);
  });

  it('C50: waking a session that wants nothing does nothing', () => {
    for (const state of [connected(), run([{ type: 'disconnect' }], ports(), connected()).state]) {
      expect(run([{ type: 'visible' }], ports(), state).effects).toEqual([]);
    }
  });

  it('C22: disconnect closes socket 1 and never reconnects', () => {
    const { state, effects } = run([{ type: 'disconnect' }], ports(), connected());
    expect(state.view.status).toBe('closed');
    expect(effects).toContainEqual({ type: 'close', socket: 1 });
    expect(effects.some((e) => e.type === 'startTimer' && e.name === 'reconnect')).toBe(false);
  });

  it('C29: switching closes the old socket and connects once its close arrives', () => {
    const switching = run([{ type: 'switchTo', scope: { chatId: 'chat-2' } }], ports(), connected());
    expect(switching.state.view.status).toBe('connecting');
    expect(switching.effects).toContainEqual({ type: 'close', socket: 1 });
    const reopened = run([{ type: 'closed', socket: 1, code: 1000 }], ports(), switching.state);
    expect(reopened.effects).toContainEqual({
      type: 'open',
      socket: 2,
      url: 'wss://app.example.com/ws/document/doc-1/chat/chat-2/',
    });
  });

  it('C46: no frame after a ping: the socket is dropped as stalled and a reconnect scheduled', () => {
    const pinged = run([{ type: 'timer', name: 'ping' }], ports(), connected());
    expect(sent(pinged.effects)).toEqual([{ type: 'ping', timestamp: 1_000_000 }]);
    const stalled = run([{ type: 'timer', name: 'pongWait' }], ports(), pinged.state);
    expect(stalled.effects).toContainEqual({
      type: 'log',
      level: 'warn',
      message: 'Chat connection stalled',
    });
    expect(stalled.effects).toContainEqual({ type: 'close', socket: 1 });
    expect(stalled.state.view.reconnect?.attempt).toBe(1);
  });
});

describe('chatTransition: sending (C11–C15, C32, C41)', () => {
  it.each([
    ['C14: blank', '  ', { ok: false, reason: 'blank' }],
    [
      'C11: sent with a client id',
      'Hello',
      { ok: true, messageId: 'user-id-1', clientId: 'id-1', queued: false },
    ],
  ] as const)('%s', (_, text, result) => {
    expect(run([{ type: 'send', text, options: {} }], ports(), connected()).last.output).toEqual(result);
  });

  it('C11 C13 C14: the message frame carries options and context; loading until end_of_response', () => {
    const { state, effects } = run(
      [{ type: 'send', text: 'Hi', options: { webAccess: true } }],
      ports(),
      connected(),
    );
    expect(sent(effects)).toEqual([
      {
        type: 'message',
        message: 'Hi',
        client_id: 'id-1',
        options: { web_access: 'on', research: 'off' },
        context: { document_uuid: 'doc-1', section_uuid: null, subsection_uuid: null, chat_id: null },
      },
    ]);
    expect(state.view.loading).toBe(true);
    expect(run([{ type: 'send', text: 'Again', options: {} }], ports(), state).last.output).toEqual({
      ok: false,
      reason: 'busy',
    });
    const ended = run([{ type: 'frame', socket: 1, data: '{"type":"end_of_response"}' }], ports(), state);
    expect(ended.state.view.loading).toBe(false);
  });

  it('C12 C15: while disconnected, sends queue up to the bound and a send connects', () => {
    const { state, effects, last } = run([
      { type: 'send', text: 'one', options: {} },
      { type: 'send', text: 'two', options: {} },
      { type: 'send', text: 'three', options: {} },
    ]);
    expect(types(effects)).toContain('open');
    expect(state.queue).toHaveLength(2);
    expect(last.output).toEqual({ ok: false, reason: 'queue_full' });
    expect(state.view.messages.at(-1)?.content).toBe(CHAT_TEXTS.sendFailed);
  });

  it('C32: a socket.send that throws marks the message failed, with a system message', () => {
    const sentState = run([{ type: 'send', text: 'Hi', options: {} }], ports(), connected()).state;
    const failed = run(
      [
        {
          type: 'transmitFailed',
          socket: 1,
          failure: { kind: 'message', messageId: 'user-id-1', clientId: 'id-1' },
        },
      ],
      ports(),
      sentState,
    ).state;
    expect(failed.view.messages[0]?.metadata.delivery).toBe('failed');
    expect(failed.view.messages.at(-1)?.content).toBe(CHAT_TEXTS.sendFailed);
    expect(failed.view.loading).toBe(false);
    expect(failed.unconfirmed.size).toBe(0);
  });

  it('C41: stop only while an answer is owed', () => {
    expect(run([{ type: 'stop' }], ports(), connected()).last.output).toBe(false);
    const asked = run([{ type: 'send', text: 'Hi', options: {} }], ports(), connected()).state;
    const stopped = run([{ type: 'stop' }], ports(), asked);
    expect(stopped.last.output).toBe(true);
    expect(sent(stopped.effects)).toEqual([{ type: 'stop', client_id: 'id-1' }]);
  });
});

describe('chatTransition: answers (C19, C20, C51, C52)', () => {
  const frame = (data: unknown): ChatEvent => ({ type: 'frame', socket: 1, data: JSON.stringify(data) });

  it('C19: cumulative content streams as deltas; a stale prefix is ignored', () => {
    const { effects, state } = run(
      [
        frame({ type: 'ai', content: 'Hel', message_id: 'a1' }),
        frame({ type: 'ai', content: 'Hello', message_id: 'a1' }),
        frame({ type: 'ai', content: 'He', message_id: 'a1' }),
      ],
      ports(),
      connected(),
    );
    expect(effects.filter((e) => e.type === 'stream').map((e) => e.type === 'stream' && e.event)).toEqual([
      { type: 'delta', messageId: 'ai-id-1', text: 'Hel' },
      { type: 'delta', messageId: 'ai-id-1', text: 'lo' },
    ]);
    expect(state.view.messages.at(-1)).toMatchObject({ content: 'Hello', isPartial: true });
  });

  it.each([
    ['C51: end_of_response {interrupted} marks it', { type: 'end_of_response', interrupted: true }, true],
    ['C20: end_of_response ends it unmarked', { type: 'end_of_response' }, undefined],
  ])('%s', (_, end, mark) => {
    const { state } = run(
      [frame({ type: 'ai', content: 'Half', message_id: 'a1' }), frame(end)],
      ports(),
      connected(),
    );
    expect(state.view.messages.at(-1)).toMatchObject({ isPartial: false });
    expect(state.view.messages.at(-1)?.metadata.interrupted).toBe(mark);
  });

  it('C20 C52: a drop marks the stream interrupted; the same answer on the next socket continues it', () => {
    const cut = run(
      [frame({ type: 'ai', content: 'Half', message_id: 'a1' }), { type: 'closed', socket: 1, code: 1006 }],
      ports(),
      connected(),
    ).state;
    expect(cut.view.messages.at(-1)?.metadata.interrupted).toBe(true);
    const resumed = run(
      [
        { type: 'timer', name: 'reconnect' },
        { type: 'opened', socket: 2 },
        {
          type: 'frame',
          socket: 2,
          data: JSON.stringify({ type: 'ai', content: 'Half more', message_id: 'a1' }),
        },
      ],
      ports(),
      cut,
    ).state;
    const answers = resumed.view.messages.filter((m) => m.role === 'ai');
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ content: 'Half more', isPartial: true });
    expect(answers[0]?.metadata.interrupted).toBeUndefined();
    expect(resumed.view.loading).toBe(true);
  });

  it('C5 C36: a hostile frame is logged and changes nothing', () => {
    const state = connected();
    const { state: after, effects } = run([{ type: 'frame', socket: 1, data: '{nope' }], ports(), state);
    expect(after.view).toBe(state.view);
    expect(effects).toContainEqual({
      type: 'log',
      level: 'warn',
      message: 'Ignored chat frame: frame is not JSON',
    });
  });

  it('a frame from a socket that is no longer current changes nothing', () => {
    const state = connected();
    const { state: after, effects } = run(
      [{ type: 'frame', socket: 9, data: '{"type":"system","content":"x"}' }],
      ports(),
      state,
    );
    expect(after.view).toBe(state.view);
    expect(effects).toEqual([]);
  });
});
