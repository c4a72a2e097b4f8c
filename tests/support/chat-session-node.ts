import type { ChatSession, ChatSnapshot, ChatSocket, ChatSocketFactory } from '@planwright/sdk';
import WebSocket from 'ws';

/** Node has no global WebSocket before 22: `ws` speaks the same browser-style API the session uses. */
export const nodeSocketFactory: ChatSocketFactory = (url) => new WebSocket(url) as unknown as ChatSocket;

/** Resolves with the first snapshot that satisfies `check` (now or after a later change). */
export function waitForSnapshot(
  session: ChatSession,
  check: (snapshot: ChatSnapshot) => boolean,
  label = 'chat snapshot',
): Promise<ChatSnapshot> {
  return new Promise((resolve, reject) => {
    const test = () => {
      const snapshot = session.getSnapshot();
      if (!check(snapshot)) return false;
      unsubscribe();
      resolve(snapshot);
      return true;
    };
    const unsubscribe = session.subscribe(() => {
      try {
        test();
      } catch (error) {
        unsubscribe();
        reject(error);
      }
    });
    if (!test()) {
      // Nothing more to wait for once the session gives up: fail with what it shows.
      const stop = session.subscribe(() => {
        const snapshot = session.getSnapshot();
        if (snapshot.status === 'error' && !check(snapshot)) {
          stop();
          unsubscribe();
          reject(new Error(`${label}: the session failed with "${snapshot.error}"`));
        }
      });
    }
  });
}
