import type { ChatSession, ChatSnapshot } from '@planwright/sdk';

/** The chat failed for good: it gave up reconnecting, or the server refused it (T43). */
export class ChatUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChatUnavailableError';
  }
}

/** True when the session will not try again by itself (an error with no reconnect scheduled). */
export function hasGivenUp(snapshot: ChatSnapshot): boolean {
  return snapshot.status === 'error' && snapshot.reconnect === null;
}

/**
 * Resolves with the first snapshot (now or later) that passes `check`; rejects with
 * {@link ChatUnavailableError} once the session has given up without passing it (T43).
 */
export function untilSnapshot(
  chat: ChatSession,
  check: (snapshot: ChatSnapshot) => boolean,
): Promise<ChatSnapshot> {
  return new Promise((resolve, reject) => {
    const test = (): boolean => {
      const snapshot = chat.getSnapshot();
      if (check(snapshot)) {
        resolve(snapshot);
        return true;
      }
      if (hasGivenUp(snapshot)) {
        reject(new ChatUnavailableError(snapshot.error ?? 'Failed to connect to chat.'));
        return true;
      }
      return false;
    };
    if (test()) return;
    const stop = chat.subscribe(() => {
      if (test()) stop();
    });
  });
}
