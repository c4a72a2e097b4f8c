import { and, asc, eq, gt, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { documents, invitations, organizations, users } from '../db/schema.js';
import { isUuid } from '../db/uuid.js';

/** A stored invitation, to a document or to an organisation. */
export type InvitationRecord = typeof invitations.$inferSelect;

/** What an invitation is to: one document, or one organisation. */
export type InvitationTarget = { documentId: string } | { organizationId: string };

/** An invitation with what its invitee is shown: the plan's title or the organisation's name, and who invited them. */
export type InvitationWithTarget = InvitationRecord & {
  documentTitle: string | null;
  organizationName: string | null;
  inviterEmail: string | null;
  inviterFirstName: string | null;
  inviterLastName: string | null;
};

/** What a new invitation is made of. */
export interface NewInvitation {
  target: InvitationTarget;
  email: string;
  role: InvitationRecord['role'];
  invitedBy: string;
  tokenHash: string;
  at: Date;
  expiresAt: Date;
}

const pending = (now: Date) =>
  and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, now));

const ofTarget = (target: InvitationTarget): SQL =>
  'documentId' in target
    ? eq(invitations.documentId, target.documentId)
    : eq(invitations.organizationId, target.organizationId);

const withTarget = {
  invitation: invitations,
  documentTitle: documents.title,
  organizationName: organizations.name,
  inviterEmail: users.email,
  inviterFirstName: users.firstName,
  inviterLastName: users.lastName,
};

function flatten({
  invitation,
  ...named
}: { invitation: InvitationRecord } & Omit<
  InvitationWithTarget,
  keyof InvitationRecord
>): InvitationWithTarget {
  return { ...invitation, ...named };
}

/**
 * Invitations by e-mail (docs/teams.md "Invitations"), to documents and organisations alike: one lifecycle
 * (pending, then accepted, revoked or expired; a resend replaces the link), one table, one link page.
 */
export class InvitationRepository {
  constructor(private readonly db: Db) {}

  private withNames() {
    return this.db
      .select(withTarget)
      .from(invitations)
      .leftJoin(documents, eq(documents.id, invitations.documentId))
      .leftJoin(organizations, eq(organizations.id, invitations.organizationId))
      .leftJoin(users, eq(users.id, invitations.invitedBy));
  }

  /**
   * Creates a pending invitation. An earlier one for the address that expired is revoked first, so the
   * address may be invited again; one still pending makes this answer undefined (the unique index decides).
   */
  async invite(input: NewInvitation): Promise<InvitationRecord | undefined> {
    const emailKey = input.email.toLowerCase();
    await this.db
      .update(invitations)
      .set({ revokedAt: input.at })
      .where(
        and(
          ofTarget(input.target),
          eq(invitations.emailKey, emailKey),
          isNull(invitations.acceptedAt),
          isNull(invitations.revokedAt),
          sql`${invitations.expiresAt} <= ${input.at}`,
        ),
      );
    const [row] = await this.db
      .insert(invitations)
      .values({
        ...('documentId' in input.target
          ? { documentId: input.target.documentId }
          : { organizationId: input.target.organizationId }),
        email: input.email,
        emailKey,
        role: input.role,
        invitedBy: input.invitedBy,
        tokenHash: input.tokenHash,
        createdAt: input.at,
        sentAt: input.at,
        expiresAt: input.expiresAt,
      })
      .onConflictDoNothing()
      .returning();
    return row;
  }

  /** The target's invitations still pending at `now`, newest first. */
  async pendingOf(target: InvitationTarget, now: Date): Promise<InvitationRecord[]> {
    return this.db
      .select()
      .from(invitations)
      .where(and(ofTarget(target), pending(now)))
      .orderBy(sql`${invitations.createdAt} desc`, asc(invitations.id));
  }

  /** The invitations pending at `now` for an address, with what they are to, newest first. */
  async pendingFor(emailKey: string, now: Date): Promise<InvitationWithTarget[]> {
    const rows = await this.withNames()
      .where(and(eq(invitations.emailKey, emailKey), pending(now)))
      .orderBy(sql`${invitations.createdAt} desc`, asc(invitations.id));
    return rows.map(flatten);
  }

  /** An invitation of the target by id, whatever its state. */
  async findOf(target: InvitationTarget, id: string): Promise<InvitationRecord | undefined> {
    if (!isUuid(id)) return undefined;
    const [row] = await this.db
      .select()
      .from(invitations)
      .where(and(ofTarget(target), eq(invitations.id, id)));
    return row;
  }

  /** An invitation with its names, by id or by its link's token hash, whatever its state; locked with `forUpdate`. */
  async find(
    by: { id: string } | { tokenHash: string },
    options: { forUpdate?: boolean } = {},
  ): Promise<InvitationWithTarget | undefined> {
    if ('id' in by && !isUuid(by.id)) return undefined;
    const query = this.withNames().where(
      'id' in by ? eq(invitations.id, by.id) : eq(invitations.tokenHash, by.tokenHash),
    );
    const [row] = options.forUpdate ? await query.for('update', { of: invitations }) : await query;
    return row && flatten(row);
  }

  /** A resend: a new link (the old one stops working) and a new expiry. */
  async renew(id: string, tokenHash: string, at: Date, expiresAt: Date): Promise<void> {
    await this.db.update(invitations).set({ tokenHash, sentAt: at, expiresAt }).where(eq(invitations.id, id));
  }

  /** Revokes a pending invitation; false when it was not pending. */
  async revoke(id: string, at: Date): Promise<boolean> {
    const rows = await this.db
      .update(invitations)
      .set({ revokedAt: at })
      .where(and(eq(invitations.id, id), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)))
      .returning({ id: invitations.id });
    return rows.length > 0;
  }

  /** Marks an invitation accepted by `userId`. */
  async markAccepted(id: string, userId: string, at: Date): Promise<void> {
    await this.db
      .update(invitations)
      .set({ acceptedAt: at, acceptedBy: userId })
      .where(eq(invitations.id, id));
  }
}
