import { useEffect, useState } from 'react';
import { useSession } from '../account/use-account';
import { usePlanwrightClient } from '../api/use-planwright-client';
import { useBrowserPorts } from '../platform/browser-ports-context';
import { useSiteConfig } from '../site/site-config';
import { useLatest } from '../state/use-flow';
import { openLivePlan } from './open-live-plan';
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
  const site = useSiteConfig();
  // W40: whether the server co-edits plans live decides how the workspace saves, so it waits for the
  // answer (a failed read means REST, which every server speaks).
  const live = site.isPending ? undefined : site.data?.live_documents === true;
  const session = useSession();
  const who = useLatest({ name: session.name, email: session.email });

  useEffect(() => {
    if (live === undefined) return;
    const created = new PlanWorkspace({
      client,
      kind,
      uuid,
      clock,
      storage,
      onWritten: () => written()(),
      ...(live ? { openLive: (of: PlanKind, id: string) => openLivePlan(client, of, id, who()) } : {}),
    });
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
  }, [client, kind, uuid, clock, storage, written, live, who]);

  return workspace;
}
