import type { ChatSession, ChatSnapshot } from '@planwright/sdk';
import { useCallback, useSyncExternalStore } from 'react';

/**
 * One field of the session's snapshot (K19): a component re-renders only when that field changes, so a
 * streamed delta (a new `messages` list) re-renders the message list and nothing else.
 */
export function useSessionField<K extends keyof ChatSnapshot>(
  session: ChatSession,
  field: K,
): ChatSnapshot[K] {
  const read = useCallback(() => session.getSnapshot()[field], [session, field]);
  return useSyncExternalStore(session.subscribe, read);
}
