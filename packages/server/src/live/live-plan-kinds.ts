import type { DocumentJson } from '@planwright/sdk/model';
import { canChangeBlueprint, canReadBlueprint } from '../blueprints/blueprint-access.js';
import { blueprintViewerOf } from '../blueprints/blueprint-viewer.js';
import { writeBlueprint } from '../blueprints/write-blueprint.js';
import { mayDo } from '../documents/document-access.js';
import { writeDocument } from '../documents/write-document.js';
import type { LivePlan } from '../storage/live-state-repository.js';
import type { PlanStore } from '../storage/plan-store.js';
import type { Storage, TransactionalStorage } from '../storage/storage.js';
import type { UserRecord } from '../storage/user-repository.js';

/** What a sync connection may do with a plan: change it, or only follow it (its updates are refused). */
export type LiveAccess = 'edit' | 'read';

/**
 * What differs between documents and blueprints behind live editing (issue 21 item 7): who may open a plan
 * and how, and the kind's one write path for the content derived from the live state. Everything else
 * (the update log, loading, deriving, Redis) is the same for both.
 */
export interface LivePlanKind {
  /**
   * What `user` may do with the plan over the socket, or null when it is absent or not theirs to see (the
   * two are refused alike, as the REST API answers both with 404).
   */
  access(storage: Storage, id: string, user: UserRecord): Promise<LiveAccess | null>;
  /** The kind's plan store (its live state, revision and stored tree). */
  store(storage: Storage | TransactionalStorage): PlanStore;
  /**
   * Writes the tree derived from the live state through the kind's one write path, in `tx`, as `editor`
   * (the last person who changed it) or else the plan's owner. Does nothing when the plan is gone.
   */
  writeDerived(
    tx: TransactionalStorage,
    id: string,
    content: DocumentJson,
    context: { editor: UserRecord | undefined; now: Date },
  ): Promise<void>;
}

const DOCUMENT: LivePlanKind = {
  // Owners and editors change it; commenters and viewers follow it read-only (docs/teams.md "Roles").
  async access(storage, id, user) {
    const doc = await storage.documents.findHeadFor(id, user.id);
    if (!doc) return null;
    return mayDo(doc, 'edit') ? 'edit' : 'read';
  },
  store: (storage) => storage.documents,
  async writeDerived(tx, id, content, { editor, now }) {
    const head = await tx.documents.findHead(id, { forUpdate: true });
    if (!head) return;
    const actor = editor ?? (await tx.users.findById(head.ownerId));
    if (!actor) return;
    await writeDocument(tx, head, { content }, { actor, now, fromLive: true });
  },
};

const BLUEPRINT: LivePlanKind = {
  // The owner edits; whoever may read it by the visibility rules follows it read-only (spec 000 §6).
  async access(storage, id, user) {
    const bp = await storage.blueprints.findById(id);
    if (!bp) return null;
    const viewer = await blueprintViewerOf(storage, user);
    if (canChangeBlueprint(bp, viewer)) return 'edit';
    return canReadBlueprint(bp, viewer) ? 'read' : null;
  },
  store: (storage) => storage.blueprints,
  async writeDerived(tx, id, content, { editor, now }) {
    const bp = await tx.blueprints.findById(id, { lock: 'update' });
    // The seeded default has no owner and nobody changes it.
    if (!bp || bp.ownerId === null) return;
    const actor = editor ?? (await tx.users.findById(bp.ownerId));
    if (!actor) return;
    // Only the content: settings, visibility and shared organisations are REST fields, kept as they are.
    await writeBlueprint(tx, bp, { content }, { actor, now, ownerOrganizationIds: [], fromLive: true });
  },
};

/** Each kind of live plan. */
export const LIVE_PLAN_KINDS: Readonly<Record<LivePlan['kind'], LivePlanKind>> = {
  document: DOCUMENT,
  blueprint: BLUEPRINT,
};
