import { asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import * as Y from 'yjs';
import * as z from 'zod';
import type { Db } from '../db/database.js';
import { DATABASE_CHANNELS } from '../db/database-events.js';
import { liveSnapshots, liveUpdates } from '../db/schema.js';
import { uuidField } from '../http/uuid-param.js';

/** A co-edited plan: a document or a blueprint (design.md §5), by id. */
export interface LivePlan {
  kind: 'document' | 'blueprint';
  id: string;
}

/** Why a plan was announced: who may open it changed, it is gone, or its comments changed. */
export type LivePlanChangeReason = 'access' | 'deleted' | 'comments';

const planChange = z.object({
  kind: z.enum(['document', 'blueprint']),
  id: uuidField,
  why: z.enum(['access', 'deleted', 'comments']),
});

/** An announcement as heard on `DATABASE_CHANNELS.livePlanChanged`; null for anything unreadable. */
export function parseLivePlanChange(payload: string): (LivePlan & { why: LivePlanChangeReason }) | null {
  try {
    const change = planChange.safeParse(JSON.parse(payload));
    return change.success ? change.data : null;
  } catch {
    return null;
  }
}

/** A plan's stored live state: its snapshot (null before the first compaction) and the log since. */
export interface StoredLiveState {
  /** The compacted state, `Y.encodeStateAsUpdate` of everything folded so far. */
  snapshot: Uint8Array | null;
  /** The log's rows not folded yet, oldest first. */
  updates: ReadonlyArray<{ seq: bigint; update: Uint8Array }>;
}

/** What one compaction did. */
export interface Compaction {
  /** Log rows folded into the snapshot (and deleted). */
  folded: number;
  /** The snapshot's size after it. */
  snapshotBytes: number;
}

/** A Buffer from node-postgres or a Uint8Array from PGlite, as a plain Uint8Array over the same bytes. */
function bytesOf(value: Uint8Array): Uint8Array {
  return value.constructor === Uint8Array
    ? value
    : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
}

/**
 * The durable side of live plans: an append-only log of Yjs updates per plan, folded now and then into
 * one snapshot. An append is durable when its promise resolves (its own statement, committed). Yjs
 * updates commute and repeat harmlessly, so rows are read in any order and a state is the snapshot
 * plus every row; compaction folds exactly the rows it read and deletes only those, so an update
 * committed meanwhile (from another instance) is never lost.
 */
export class LiveStateRepository {
  constructor(private readonly db: Db) {}

  /**
   * Tells every instance that who may open `plan` changed (`access`), that it is gone (`deleted`), so each
   * closes its connections to it, or that its comments changed (`comments`), so each tells the people with it
   * open. In a transaction, it is heard once that commits.
   */
  async announce(plan: LivePlan, why: LivePlanChangeReason): Promise<void> {
    const payload = JSON.stringify({ kind: plan.kind, id: plan.id, why });
    await this.db.execute(sql`select pg_notify(${DATABASE_CHANNELS.livePlanChanged}, ${payload})`);
  }

  /** Appends one update to the plan's log; resolves once it is stored. Returns its sequence number. */
  async append(plan: LivePlan, update: Uint8Array, now: Date): Promise<bigint> {
    const [row] = await this.db
      .insert(liveUpdates)
      .values({ ...planColumns(plan), update, createdAt: now })
      .returning({ seq: liveUpdates.seq });
    if (!row) throw new Error('insert into live_updates returned no row');
    return row.seq;
  }

  /** The plan's snapshot and the log rows since. */
  async load(plan: LivePlan): Promise<StoredLiveState> {
    const [snapshot] = await this.db
      .select({ state: liveSnapshots.state })
      .from(liveSnapshots)
      .where(ofPlan(liveSnapshots, plan));
    const rows = await this.db
      .select({ seq: liveUpdates.seq, update: liveUpdates.update })
      .from(liveUpdates)
      .where(ofPlan(liveUpdates, plan))
      .orderBy(asc(liveUpdates.seq));
    return {
      snapshot: snapshot ? bytesOf(snapshot.state) : null,
      updates: rows.map((row) => ({ seq: row.seq, update: bytesOf(row.update) })),
    };
  }

  /** How many log rows the plan has that are not folded yet (compaction is due past a threshold). */
  async pendingUpdates(plan: LivePlan): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(liveUpdates)
      .where(ofPlan(liveUpdates, plan));
    return row?.count ?? 0;
  }

  /**
   * Folds the plan's log into its snapshot: the state is rebuilt in a Yjs document (which drops the
   * content of deletions) and stored; the rows read are deleted. Compactions of one plan take turns
   * (a transaction-scoped advisory lock), so two instances never store a snapshot that misses the
   * other's rows.
   */
  async compact(plan: LivePlan, now: Date): Promise<Compaction> {
    return this.db.transaction(async (tx) => {
      await lockPlan(tx as unknown as Db, plan);
      const repository = new LiveStateRepository(tx as unknown as Db);
      const stored = await repository.load(plan);
      if (stored.updates.length === 0) {
        return { folded: 0, snapshotBytes: stored.snapshot?.byteLength ?? 0 };
      }
      const ydoc = new Y.Doc();
      try {
        if (stored.snapshot) Y.applyUpdate(ydoc, stored.snapshot);
        for (const row of stored.updates) Y.applyUpdate(ydoc, row.update);
        const state = Y.encodeStateAsUpdate(ydoc);
        await repository.#writeSnapshot(plan, state, stored.updates.length, now);
        const seqs = stored.updates.map((row) => row.seq);
        // Exactly the rows folded: one committed meanwhile by another instance stays for the next time.
        for (let start = 0; start < seqs.length; start += 1000) {
          await tx.delete(liveUpdates).where(inArray(liveUpdates.seq, seqs.slice(start, start + 1000)));
        }
        return { folded: seqs.length, snapshotBytes: state.byteLength };
      } finally {
        ydoc.destroy();
      }
    });
  }

  /**
   * Stores `state` as the first state of a plan that has none (no snapshot, no log), under the same
   * lock as compaction. False when the plan already had a state (another instance got there first):
   * the caller loads that one instead.
   */
  async initialize(plan: LivePlan, state: Uint8Array, now: Date): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await lockPlan(tx as unknown as Db, plan);
      const repository = new LiveStateRepository(tx as unknown as Db);
      const stored = await repository.load(plan);
      if (stored.snapshot !== null || stored.updates.length > 0) return false;
      await repository.#writeSnapshot(plan, state, 0, now);
      return true;
    });
  }

  async #writeSnapshot(plan: LivePlan, state: Uint8Array, folded: number, now: Date): Promise<void> {
    const updated = await this.db
      .update(liveSnapshots)
      .set({ state, foldedUpdates: sql`${liveSnapshots.foldedUpdates} + ${folded}`, updatedAt: now })
      .where(ofPlan(liveSnapshots, plan))
      .returning({ id: liveSnapshots.id });
    if (updated.length === 0) {
      await this.db
        .insert(liveSnapshots)
        .values({ ...planColumns(plan), state, foldedUpdates: folded, updatedAt: now });
    }
  }
}

function planColumns(plan: LivePlan): { documentId: string } | { blueprintId: string } {
  return plan.kind === 'document' ? { documentId: plan.id } : { blueprintId: plan.id };
}

function ofPlan(table: typeof liveUpdates | typeof liveSnapshots, plan: LivePlan): SQL {
  return plan.kind === 'document' ? eq(table.documentId, plan.id) : eq(table.blueprintId, plan.id);
}

/** Serialises compactions and first states of one plan across instances, until the transaction ends. */
async function lockPlan(tx: Db, plan: LivePlan): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`planwright.live:${plan.kind}:${plan.id}`}))`);
}
