import { useEffect, useState } from 'react';
import { usePlanwrightClient } from '../api/use-planwright-client';
import { useBrowserPorts } from '../platform/browser-ports-context';
import { useLatest } from '../state/use-flow';
import { DocumentWorkspace } from './document-workspace';

/**
 * The opened document's {@link DocumentWorkspace}: made and loaded when the page mounts (one per document:
 * a new uuid gets a new one), disposed when it goes. Whatever is unsaved then stays in browser storage as
 * a draft, restored on the next visit. `null` until the effect has run. Made in the effect, not during
 * render, so development's double mount gets a fresh one instead of a disposed one.
 */
export function useDocumentWorkspace(uuid: string, onWritten: () => void): DocumentWorkspace | null {
  const client = usePlanwrightClient();
  const { clock, storage } = useBrowserPorts();
  const written = useLatest(onWritten);
  const [workspace, setWorkspace] = useState<DocumentWorkspace | null>(null);

  useEffect(() => {
    const created = new DocumentWorkspace({ client, uuid, clock, storage, onWritten: () => written()() });
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
  }, [client, uuid, clock, storage, written]);

  return workspace;
}
