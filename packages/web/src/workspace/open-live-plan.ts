import type { PlanwrightClient } from '@planwright/sdk';
import { type LiveDocument, openLiveDocument } from '@planwright/sdk/live';
import { IndexeddbPersistence } from 'y-indexeddb';
import * as Y from 'yjs';
import { caretColor, caretName } from '../editor/live-carets';
import { livePlanStoreName } from './live-plan-store';
import type { OpenedLivePlan } from './live-saving';
import type { PlanKind } from './plan-resource';

/**
 * Opens a plan's live copy (a document's or a blueprint's) in the browser (W40): its changes are kept in IndexedDB as they are made
 * (so a reload or a closed tab while offline loses nothing) and sent over the sync socket with the
 * session token inside the protocol; the others see `who` beside the caret.
 */
export function openLivePlan(
  client: PlanwrightClient,
  kind: PlanKind,
  uuid: string,
  who: { name: string | null; email: string | null },
): OpenedLivePlan {
  const document = new Y.Doc();
  // IndexedDB can be blocked (some private windows): the plan still works then, its changes kept in the tab.
  let local: IndexeddbPersistence | null = null;
  try {
    if (typeof indexedDB !== 'undefined') local = new IndexeddbPersistence(livePlanStoreName(uuid), document);
  } catch {
    local = null;
  }
  const name = caretName(who);
  const live: LiveDocument = openLiveDocument({
    baseUrl: window.location.origin,
    documentId: uuid,
    kind,
    token: () => client.tokenStore.getToken(),
    user: { name, color: caretColor(who.email ?? name) },
    document,
  });
  return {
    live,
    close: () => {
      live.destroy();
      void local?.destroy();
    },
  };
}
