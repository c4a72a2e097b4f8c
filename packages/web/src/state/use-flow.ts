import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { Flow } from './flow';

/**
 * One flow per mounted component: made on first render, started by the effect, paused on unmount (a
 * remount in development resumes it; see `Flow`). Returns its state and `send`.
 */
export function useFlow<S, E, F extends { type: string }>(
  create: () => Flow<S, E, F>,
): [S, (event: E) => void] {
  const [flow] = useState(create);
  useEffect(() => {
    flow.start();
    return () => flow.stop();
  }, [flow]);
  const state = useSyncExternalStore(flow.subscribe, flow.getSnapshot, flow.getSnapshot);
  return [state, flow.send];
}

/**
 * The latest value of something that changes between renders (the router's `navigate`), for effects a
 * flow runs later: the flow is made once, the ports it reaches through this never go stale.
 */
export function useLatest<T>(value: T): () => T {
  const ref = useRef(value);
  ref.current = value;
  const [read] = useState(() => () => ref.current);
  return read;
}
