import { useEffect, useState } from 'react';
import { usePlanwrightClient } from '../api/use-planwright-client';
import { useBrowserPorts } from '../platform/browser-ports-context';
import { useLatest } from '../state/use-flow';
import type { PlanKind } from './plan-resource';
import { PlanWorkspace } from './plan-workspace';

/**
 * The opened document's (or blueprint's) {@link PlanWorkspace}: made and loaded when the page mounts (one per
 * resource: a new uuid gets a new one), disposed when it goes. Whatever is unsaved then stays in browser storage as
 * a draft, restored on the next visit. `null` until the effect has run. Made in the effect, not during
 * render, so development's double mount gets a fresh one instead of a disposed one.
 */
export function usePlanWorkspace(kind: PlanKind, uuid: string, onWritten: () => void): PlanWorkspace | null {
  const client = usePlanwrightClient();
  const { clock, storage } = useBrowserPorts();
  const written = useLatest(onWritten);
  const [workspace, setWorkspace] = useState<PlanWorkspace | null>(null);

  useEffect(() => {
    const created = new PlanWorkspace({ client, kind, uuid, clock, storage, onWritten: () => written()() });
    setWorkspace(created);
    void created.load();
    return () => {
      try {
        if (created.controller.getSnapshot().dirty) created.controller.persistDraft();
      } catch {
        // The editor may already be gone; the draft written at the last save attempt stays.
      }
      created.dispose();
      setWorkspace((current) => (current === created ? null : current));
    };
  }, [client, kind, uuid, clock, storage, written]);

  return workspace;
}
