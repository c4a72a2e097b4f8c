import { CHAT_LIMIT_TEXTS, CHAT_TEXTS, FINAL_CHAT_CLOSE_CODES } from '@planwright/sdk';
import { describe, expect, it } from 'vitest';
import {
  type CloseDecision,
  closeDecision,
  cumulativeChange,
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
