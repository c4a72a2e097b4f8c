import type { SaveController, SaveSnapshot } from '@planwright/sdk';
import { useEffect, useSyncExternalStore } from 'react';
import { useBlocker } from 'react-router';

/** Something is not confirmed by the server yet: leaving now could lose it. */
export function hasUnsavedWork(snapshot: Pick<SaveSnapshot<unknown>, 'dirty' | 'inFlight'>): boolean {
  return snapshot.dirty || snapshot.inFlight;
}

/**
 * The autosave's page wiring (W4, W6, W7), around one document's {@link SaveController}:
 * - `pagehide`, and `visibilitychange` to hidden: the draft goes to storage and a keepalive save starts
 *   (the tab may never come back);
 * - `online`: a failed save is retried at once instead of waiting for its backoff;
 * - `beforeunload` while something is unsaved: the browser's own "leave the page?" prompt;
 * - in-app navigation to another page while something is unsaved: wait for a save, then go; if the save
 *   fails, stay (the badge and `onLeaveFailed` say why). Selecting a section changes only the query, so
 *   it never waits.
 * Returns the controller's snapshot, read with `useSyncExternalStore`.
 */
export function useDocumentAutosave<C>(
  controller: SaveController<C>,
  onLeaveFailed: () => void,
): SaveSnapshot<C> {
  const snapshot = useSyncExternalStore(controller.subscribe, () => controller.getSnapshot());

  useEffect(() => {
    const saveNow = () => {
      controller.persistDraft();
      void controller.flush({ keepalive: true });
    };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') saveNow();
    };
    const onOnline = () => controller.retryNow();
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!hasUnsavedWork(controller.getSnapshot())) return;
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
  }, [controller]);

  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      currentLocation.pathname !== nextLocation.pathname && hasUnsavedWork(controller.getSnapshot()),
  );

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    let current = true;
    void controller.flush().then((saved) => {
      if (!current) return;
      if (saved) blocker.proceed();
      else {
        blocker.reset();
        onLeaveFailed();
      }
    });
    return () => {
      current = false;
    };
  }, [blocker, controller, onLeaveFailed]);

  return snapshot;
}
