import { eq, lte } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { oidcStates } from '../db/schema.js';

/** A started OpenID Connect sign-in, waiting for the provider to send the browser back. */
export type OidcStateRecord = typeof oidcStates.$inferSelect;
export type NewOidcState = typeof oidcStates.$inferInsert;

/** Pending OpenID Connect sign-ins, found by the hash of their `state`; each can be taken once. */
export class OidcStateRepository {
  constructor(private readonly db: Db) {}

  async create(state: NewOidcState): Promise<OidcStateRecord> {
    const [row] = await this.db.insert(oidcStates).values(state).returning();
    if (!row) throw new Error('insert into oidc_states returned no row');
    return row;
  }

  /**
   * Removes and returns the pending sign-in with this state hash. Deleting with RETURNING makes
   * "single use" hold across instances and concurrent callbacks: only one of them gets the row.
   */
  async take(stateHash: string): Promise<OidcStateRecord | undefined> {
    const [row] = await this.db.delete(oidcStates).where(eq(oidcStates.stateHash, stateHash)).returning();
    return row;
  }

  /** Forgets sign-ins that expired at or before `before` (started and never finished). */
  async prune(before: Date): Promise<number> {
    const rows = await this.db
      .delete(oidcStates)
      .where(lte(oidcStates.expiresAt, before))
      .returning({ id: oidcStates.id });
    return rows.length;
  }
}
