import { CHAT_LIMIT_TEXTS, CHAT_TEXTS, type ChatMessage, FINAL_CHAT_CLOSE_CODES } from '@planwright/sdk';
import { describe, expect, it } from 'vitest';
import {
  type CloseDecision,
  closeDecision,
  cumulativeChange,
  mergeHistory,
  owedAnswerDelay,
  reconnectDelay,
} from '../../src/chat/chat-decisions.js';

describe('closeDecision (C21 C23 C27 C50)', () => {
  const table: [code: number, openedBefore: boolean, decision: CloseDecision, rule: string][] = [
    // code, opened before, decision
    [4401, true, { kind: 'final', error: CHAT_TEXTS.notAuthenticated, authFailed: true }, 'C27'],
    [401, false, { kind: 'final', error: CHAT_TEXTS.notAuthenticated, authFailed: true }, 'C27'],
    [4403, true, { kind: 'final', error: CHAT_TEXTS.connectFailed, authFailed: true }, 'C27'],
    [403, true, { kind: 'final', error: CHAT_TEXTS.connectFailed, authFailed: true }, 'C27'],
    [4404, true, { kind: 'final', error: CHAT_TEXTS.connectFailed, authFailed: false }, 'C27'],
    [4400, true, { kind: 'final', error: CHAT_TEXTS.connectFailed, authFailed: false }, 'C50'],
    [4429, true, { kind: 'final', error: CHAT_LIMIT_TEXTS.tooManyConnections, authFailed: false }, 'C27'],
    [1000, true, { kind: 'final', error: CHAT_TEXTS.disconnectedResume, authFailed: false }, 'C21'],
    [1001, true, { kind: 'reconnect' }, 'C50'],
    [1006, true, { kind: 'reconnect' }, 'C9'],
    [1006, false, { kind: 'reconnect' }, 'C23'],
    [1011, true, { kind: 'reconnect' }, 'C9'],
    [1011, false, { kind: 'final', error: CHAT_TEXTS.connectFailed, authFailed: false }, 'C23'],
    [1001, false, { kind: 'final', error: CHAT_TEXTS.connectFailed, authFailed: false }, 'C23'],
  ];
  it.each(table)('%i (opened before: %s) → %o (%s)', (code, opened, expected) => {
    expect(closeDecision(code, opened)).toEqual(expected);
  });

  it('C50: every code the protocol calls final is final, opened before or not', () => {
    for (const code of FINAL_CHAT_CLOSE_CODES) {
      expect(closeDecision(code, true).kind).toBe('final');
      expect(closeDecision(code, false).kind).toBe('final');
    }
  });
});

describe('reconnectDelay (C9 C50)', () => {
  it.each([
    [1, 0.5, 1_000],
    [2, 0.5, 2_000],
    [3, 0.5, 4_000],
    [4, 0.5, 8_000],
    [5, 0.5, 16_000],
    [6, 0.5, 30_000],
    [50, 0.5, 30_000],
    [1, 0, 800],
    [1, 0.999, 1_200],
    [6, 0, 24_000],
    [6, 0.999, 35_988],
    // A random source out of range is clamped.
    [1, -3, 800],
    [1, 7, 1_200],
  ])('attempt %i with random %d waits %i ms', (attempt, random, expected) => {
    expect(reconnectDelay(attempt, random)).toBe(expected);
  });
});

describe('cumulativeChange (C19)', () => {
  it.each([
    ['', 'Hello', { kind: 'delta', text: 'Hello' }],
    ['Hel', 'Hello', { kind: 'delta', text: 'lo' }],
    ['Hello', 'Hello', { kind: 'same' }],
    ['Hello', 'Hel', { kind: 'stale' }],
    ['Hello', 'Goodbye', { kind: 'reset', content: 'Goodbye' }],
    ['Hello', '', { kind: 'stale' }],
  ] as const)('%j then %j → %o', (shown, content, expected) => {
    expect(cumulativeChange(shown, content)).toEqual(expected);
  });
});

describe('owedAnswerDelay (C48)', () => {
  it.each([
    [0, 0, 0, 1_000],
    [1, 0, 1_000, 2_000],
    [2, 0, 3_000, 4_000],
    [3, 0, 7_000, 8_000],
    [10, 0, 100_000, 8_000],
    // Two minutes after it was first seen owed, nobody asks any more.
    [10, 0, 113_000, null],
    [10, 0, 112_000, 8_000],
  ])('poll %i, owed since %i, now %i → %s', (polls, since, now, expected) => {
    expect(owedAnswerDelay(polls, since, now)).toBe(expected);
  });
});

describe('mergeHistory (C18 C47)', () => {
  const at = (ms: number) => new Date(ms).toISOString();
  const message = (
    id: string,
    role: ChatMessage['role'],
    time: number,
    metadata: ChatMessage['metadata'] = {},
    isPartial = false,
  ): ChatMessage => ({ id, role, content: id, timestamp: at(time), isPartial, metadata });
  const ASKED = 1_000;
  const stored = [
    message('history-u1', 'user', 10, { serverId: 'u1', clientId: 'c1' }),
    message('history-a1', 'ai', 20, { serverId: 'a1' }),
  ];

  it.each([
    [
      'an old local copy of a stored message goes',
      [message('user-c1', 'user', 10, { clientId: 'c1' })],
      null,
      ['history-u1', 'history-a1'],
    ],
    [
      'a queued message stays, after history',
      [message('user-c9', 'user', 10, { clientId: 'c9', delivery: 'queued' })],
      null,
      ['history-u1', 'history-a1', 'user-c9'],
    ],
    [
      'a message since the request stays',
      [message('system-1', 'system', ASKED + 1)],
      null,
      ['history-u1', 'history-a1', 'system-1'],
    ],
    [
      'an old local message history lacks goes',
      [message('system-0', 'system', ASKED - 1)],
      null,
      ['history-u1', 'history-a1'],
    ],
    [
      'one since the request that history holds goes',
      [message('user-c1', 'user', ASKED + 5, { clientId: 'c1' })],
      null,
      ['history-u1', 'history-a1'],
    ],
    [
      'the live copy of a streaming answer takes its snapshot’s place',
      [message('ai-x', 'ai', 15, { serverId: 'a1' }, true)],
      'ai-x',
      ['history-u1', 'ai-x'],
    ],
    [
      'a streaming answer history lacks stays last',
      [message('ai-y', 'ai', 15, { serverId: 'a2' }, true)],
      'ai-y',
      ['history-u1', 'history-a1', 'ai-y'],
    ],
  ] as const)('C18: %s', (_, current, streamingId, ids) => {
    expect(mergeHistory(current, stored, { streamingId, askedAt: ASKED }).map((m) => m.id)).toEqual(ids);
  });
});
