// Kept apart from open-live-plan.ts so sign-out can forget the copies without loading Yjs.

const LIVE_PLAN_STORE_PREFIX = 'planwright-plan-';

/** Where a plan's live copy is kept in the browser until the server has it (W40). */
export function livePlanStoreName(uuid: string): string {
  return `${LIVE_PLAN_STORE_PREFIX}${uuid}`;
}

/**
 * Deletes every plan's live copy from this browser (W40): sign-out must not leave plans on a shared
 * computer, as for the REST editor's stored drafts (save S25). Never rejects; a store still open elsewhere
 * (another tab) is deleted when that tab lets go of it.
 */
export async function forgetLivePlanCopies(
  factory: IDBFactory | undefined = globalThis.indexedDB,
): Promise<void> {
  if (factory === undefined || typeof factory.databases !== 'function') return;
  try {
    const stores = await factory.databases();
    for (const { name } of stores) {
      if (name?.startsWith(LIVE_PLAN_STORE_PREFIX)) factory.deleteDatabase(name);
    }
  } catch {
    // Storage blocked (a private window): there is nothing kept to forget.
  }
}
