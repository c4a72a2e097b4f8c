import type { ChatMessage } from './chat-session.js';
import { CHAT_LIMIT_TEXTS, CHAT_TEXTS, CHAT_TIMINGS } from './chat-texts.js';

/**
 * The chat session's decisions as pure functions of their inputs (no socket, no clock, no `this`): what a close
 * code means, how long the next reconnect waits, what a cumulative `ai` frame changes, when an owed answer is
 * asked for again. `ChatSession` runs them; `test/chat/chat-decisions.test.ts` holds their rules as tables.
 */

/** What the session does after its socket closed (C21, C23, C27, C50). */
export type CloseDecision =
  | {
      kind: 'final';
      /** The snapshot's error text. */
      error: string;
      /** Logged as "Authentication failed. Please log in again." (C27). */
      authFailed: boolean;
    }
  | { kind: 'reconnect' };

/**
 * The meaning of a close code. Final (never retried, C27, C50): 4401/401 and 4403/403 (authentication), 4404 (no
 * such document or chat), 4429 (too many sockets), 4400 (a token in the URL), 1000 (a normal close, C21), and any
 * non-1006 close before a scope's first open (C23). Everything else (1006, 1001, 1011, a stall) reconnects.
 */
export function closeDecision(code: number, everOpened: boolean): CloseDecision {
  switch (code) {
    case 4401:
    case 401:
      return { kind: 'final', error: CHAT_TEXTS.notAuthenticated, authFailed: true };
    case 4403:
    case 403:
      return { kind: 'final', error: CHAT_TEXTS.connectFailed, authFailed: true };
    case 4404:
    case 4400:
      return { kind: 'final', error: CHAT_TEXTS.connectFailed, authFailed: false };
    case 4429:
      return { kind: 'final', error: CHAT_LIMIT_TEXTS.tooManyConnections, authFailed: false };
    case 1000:
      return { kind: 'final', error: CHAT_TEXTS.disconnectedResume, authFailed: false };
    default:
      if (!everOpened && code !== 1006)
        return { kind: 'final', error: CHAT_TEXTS.connectFailed, authFailed: false };
      return { kind: 'reconnect' };
  }
}

/**
 * The wait before reconnect attempt `attempt` (from 1): 1 s doubling, capped at 30 s, times a jitter of ±20 %
 * from `random` in [0, 1) (C9, C50): with 0.5, 1, 2, 4, 8, 16, 30, 30… s.
 */
export function reconnectDelay(attempt: number, random: number): number {
  const base = Math.min(CHAT_TIMINGS.reconnectMaxMs, CHAT_TIMINGS.reconnectBaseMs * 2 ** (attempt - 1));
  const jitter = Math.min(Math.max(random, 0), 1);
  return Math.round(base * (0.8 + 0.4 * jitter));
}

/** What a cumulative `ai` frame does to the text shown (C19). */
export type CumulativeChange =
  | { kind: 'delta'; text: string }
  | { kind: 'same' }
  /** A shorter frame that is a prefix of what is shown: late, ignored. */
  | { kind: 'stale' }
  | { kind: 'reset'; content: string };

/** C19: content that extends the text is a delta; a prefix of it is stale; anything else replaces it. */
export function cumulativeChange(shown: string, content: string): CumulativeChange {
  if (content.startsWith(shown)) {
    const text = content.slice(shown.length);
    return text === '' ? { kind: 'same' } : { kind: 'delta', text };
  }
  if (shown.startsWith(content)) return { kind: 'stale' };
  return { kind: 'reset', content };
}

/**
 * C48: when history is asked again for an owed answer, `polls` asks after it was first seen owed at `since`: after
 * 1, 2, 4 s, then every 8 s, for at most 2 minutes; `null` once that is over.
 */
export function owedAnswerDelay(polls: number, since: number, now: number): number | null {
  const delay = Math.min(CHAT_TIMINGS.answerPollMaxMs, CHAT_TIMINGS.answerPollBaseMs * 2 ** polls);
  return now + delay - since > CHAT_TIMINGS.answerWaitMs ? null : delay;
}

/**
 * C18: the transcript after a history answer. History replaces it, keeping the local messages still queued, the
 * one streaming, and those created since the request was sent (`askedAt`), minus those history already holds (the
 * same client id). An answer still streaming is in history as a snapshot: the live copy takes the snapshot's place.
 */
export function mergeHistory(
  current: readonly ChatMessage[],
  fromHistory: readonly ChatMessage[],
  context: { streamingId: string | null; askedAt: number },
): ChatMessage[] {
  const seen = new Set(fromHistory.map((m) => m.metadata.clientId).filter((c) => c !== undefined));
  const local = current.filter(
    (m) =>
      (m.metadata.delivery === 'queued' ||
        m.id === context.streamingId ||
        Date.parse(m.timestamp) >= context.askedAt) &&
      !(m.metadata.clientId !== undefined && seen.has(m.metadata.clientId)),
  );
  const live = new Map<string, ChatMessage>();
  for (const m of local) if (m.role === 'ai' && m.metadata.serverId) live.set(m.metadata.serverId, m);
  const placed = new Set<ChatMessage>();
  const kept = fromHistory.map((m) => {
    const copy = m.role === 'ai' && m.metadata.serverId ? live.get(m.metadata.serverId) : undefined;
    if (!copy) return m;
    placed.add(copy);
    return copy;
  });
  return [...kept, ...local.filter((m) => !placed.has(m))];
}
