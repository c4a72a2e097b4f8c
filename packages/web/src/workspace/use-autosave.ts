import type { SaveController, SaveSnapshot } from '@planwright/sdk';
import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';
import { useBlocker } from 'react-router';

/** Something is not confirmed by the server yet: leaving now could lose it. */
export function hasUnsavedWork(snapshot: Pick<SaveSnapshot<unknown>, 'dirty' | 'inFlight'>): boolean {
  return snapshot.dirty || snapshot.inFlight;
}

/** Other controllers saving on the same page (the blueprint's settings forms), asked for when needed. */
export type CompanionControllers = () => readonly Pick<
  SaveController<unknown>,
  'getSnapshot' | 'flush' | 'persistDraft' | 'retryNow'
>[];

const NO_COMPANIONS: CompanionControllers = () => [];

/**
 * The autosave's page wiring (W4, W6, W7), around one document's {@link SaveController} and any companions
 * (B5: the blueprint's settings forms count as unsaved work too):
 * - `pagehide`, and `visibilitychange` to hidden: the draft goes to storage and a keepalive save starts
 *   (the tab may never come back);
 * - `online`: a failed save is retried at once instead of waiting for its backoff;
 * - `beforeunload` while something is unsaved: the browser's own "leave the page?" prompt;
 * - in-app navigation to another page while something is unsaved: wait for a save, then go; if the save
 *   fails, stay (the badge and `onLeaveFailed` say why). Selecting a section changes only the query, so
 *   it never waits.
 * It reads the snapshots only when it needs them: subscribing here would re-render the whole page on each
 * change, which a live plan makes on every keystroke (read them with {@link useSaveSnapshot}).
 */
export function useAutosave<C>(
  controller: Pick<SaveController<C>, 'getSnapshot' | 'flush' | 'persistDraft' | 'retryNow'>,
  onLeaveFailed: () => void,
  companions: CompanionControllers = NO_COMPANIONS,
): void {
  const anyUnsaved = useCallback(
    () => [controller, ...companions()].some((each) => hasUnsavedWork(each.getSnapshot())),
    [controller, companions],
  );

  useEffect(() => {
    const saveNow = () => {
      for (const each of [controller, ...companions()]) {
        each.persistDraft();
        void each.flush({ keepalive: true });
      }
    };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') saveNow();
    };
    const onOnline = () => {
      for (const each of [controller, ...companions()]) each.retryNow();
    };
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!anyUnsaved()) return;
      event.preventDefault();
      // Older browsers show their prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('pagehide', saveNow);
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('online', onOnline);
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      window.removeEventListener('pagehide', saveNow);
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('online', onOnline);
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [controller, companions, anyUnsaved]);

  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => currentLocation.pathname !== nextLocation.pathname && anyUnsaved(),
  );

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    let current = true;
    const flushes = [controller, ...companions()].map((each) => each.flush());
    void Promise.all(flushes).then((results) => {
      if (!current) return;
      const saved = results.every(Boolean);
      if (saved) blocker.proceed();
      else {
        blocker.reset();
        onLeaveFailed();
      }
    });
    return () => {
      current = false;
    };
  }, [blocker, controller, companions, onLeaveFailed]);
}

/**
 * What a component shows of a save controller's snapshot, `select`ed from it: the component re-renders
 * only when the selection changes by `equal` (so a page that shows only failures is not re-rendered by
 * each "Saving…" and "Saved" of a live plan's keystrokes).
 */
export function useSaveSnapshot<C, T>(
  controller: Pick<SaveController<C>, 'subscribe' | 'getSnapshot'>,
  select: (snapshot: SaveSnapshot<C>) => T,
  equal: (a: T, b: T) => boolean = Object.is,
): T {
  const last = useRef<{ snapshot: SaveSnapshot<C>; selected: T } | null>(null);
  const read = () => {
    const snapshot = controller.getSnapshot();
    const previous = last.current;
    if (previous?.snapshot === snapshot) return previous.selected;
    const selected = select(snapshot);
    if (previous && equal(previous.selected, selected)) {
      last.current = { snapshot, selected: previous.selected };
      return previous.selected;
    }
    last.current = { snapshot, selected };
    return selected;
  };
  return useSyncExternalStore(controller.subscribe, read);
}
