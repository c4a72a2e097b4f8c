import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { organizationMembers, organizations, users } from '../db/schema.js';
import { isUuid } from '../db/uuid.js';

/** A stored organisation. */
export type OrganizationRecord = typeof organizations.$inferSelect;
/** What a member may do: admins manage the members. */
export type OrganizationRole = 'admin' | 'member';
/** An organisation as one of its members sees it. */
export type MembershipRecord = OrganizationRecord & { role: OrganizationRole };
/** A member with the parts of their account other members may see (the e-mail only for its local part). */
export interface MemberRecord {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  role: OrganizationRole;
  createdAt: Date;
}

/** What removing a member did. */
export type RemoveMemberOutcome = 'removed' | 'not_member' | 'last_admin';
/** What changing a member's role did. */
export type SetRoleOutcome = 'changed' | 'unchanged' | 'not_member' | 'last_admin';

/** The longest slug made from a name; room is left for a `-N` suffix. */
const SLUG_MAX = 60;

/**
 * A URL-safe slug from any name: Latin letters lose their accents ("Société" → "societe"), the letters,
 * marks and digits of every other script are kept whole (percent-encoded by whoever puts them in a
 * URL), and everything else becomes one dash. A name with nothing usable (only emoji or punctuation)
 * becomes "organization".
 */
export function slugify(name: string): string {
  const slug = name
    .toLowerCase()
    // NFKD splits "é" into "e" + accent and folds compatibility forms (full-width letters, ligatures).
    .normalize('NFKD')
    .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
    // Marks of other scripts are part of their letters (ジ, हि): recompose them.
    .normalize('NFC')
    // A mark with no letter to sit on (Zalgo text, a name starting with one) is noise.
    .replace(/(^|[^\p{L}\p{N}\p{M}])\p{M}+/gu, '$1')
    .replace(/[^\p{L}\p{N}\p{M}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  const cut = Array.from(slug).slice(0, SLUG_MAX).join('').replace(/-+$/, '');
  return cut || 'organization';
}

/** Organisations and who belongs to them. */
export class OrganizationRepository {
  constructor(private readonly db: Db) {}

  /** The ids of every organisation `userId` belongs to (any role). */
  async organizationIdsOf(userId: string): Promise<string[]> {
    const rows = await this.db
      .select({ id: organizationMembers.organizationId })
      .from(organizationMembers)
      .where(eq(organizationMembers.userId, userId));
    return rows.map((row) => row.id);
  }

  /** Which of `ids` name an existing organisation (ids that are not uuids are simply absent). */
  async existingIds(ids: readonly string[]): Promise<string[]> {
    const candidates = [...new Set(ids.filter(isUuid))];
    if (candidates.length === 0) return [];
    const rows = await this.db
      .select({ id: organizations.id })
      .from(organizations)
      .where(inArray(organizations.id, candidates));
    return rows.map((row) => row.id);
  }

  /**
   * Creates an organisation with `createdBy` as its admin. The slug comes from the name; a taken one
   * gets the first free `-2`, `-3`, … (the unique index decides, so concurrent creates cannot collide).
   */
  async create(input: { name: string; createdBy: string; createdAt: Date }): Promise<MembershipRecord> {
    const base = slugify(input.name);
    return this.db.transaction(async (tx) => {
      const taken = await tx
        .select({ slug: organizations.slug })
        .from(organizations)
        .where(sql`${organizations.slug} = ${base} or ${organizations.slug} like ${`${escapeLike(base)}-%`}`);
      const used = new Set(taken.map((row) => row.slug));
      for (let n = 1; ; n++) {
        const slug = n === 1 ? base : `${base}-${n}`;
        if (used.has(slug)) continue;
        const [row] = await tx
          .insert(organizations)
          .values({ name: input.name, slug, createdBy: input.createdBy, createdAt: input.createdAt })
          .onConflictDoNothing({ target: organizations.slug })
          .returning();
        // Taken between the read and the insert by a concurrent create: try the next number.
        if (!row) {
          used.add(slug);
          continue;
        }
        await tx.insert(organizationMembers).values({
          organizationId: row.id,
          userId: input.createdBy,
          role: 'admin',
          createdAt: input.createdAt,
        });
        return { ...row, role: 'admin' as const };
      }
    });
  }

  /** The organisations `userId` belongs to, by name, with their role in each. */
  async listFor(userId: string): Promise<MembershipRecord[]> {
    const rows = await this.db
      .select({ organization: organizations, role: organizationMembers.role })
      .from(organizationMembers)
      .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
      .where(eq(organizationMembers.userId, userId))
      .orderBy(asc(organizations.name), asc(organizations.id));
    return rows.map((row) => ({ ...row.organization, role: row.role }));
  }

  /** The organisation if `userId` belongs to it; undefined for non-members and unknown ids alike. */
  async findForMember(organizationId: string, userId: string): Promise<MembershipRecord | undefined> {
    if (!isUuid(organizationId)) return undefined;
    const [row] = await this.db
      .select({ organization: organizations, role: organizationMembers.role })
      .from(organizationMembers)
      .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
      .where(
        and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId)),
      );
    return row ? { ...row.organization, role: row.role } : undefined;
  }

  /** Every member, admins first, then in the order they joined. */
  async members(organizationId: string): Promise<MemberRecord[]> {
    return this.db
      .select({
        userId: organizationMembers.userId,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
        role: organizationMembers.role,
        createdAt: organizationMembers.createdAt,
      })
      .from(organizationMembers)
      .innerJoin(users, eq(users.id, organizationMembers.userId))
      .where(eq(organizationMembers.organizationId, organizationId))
      .orderBy(
        sql`case when ${organizationMembers.role} = 'admin' then 0 else 1 end`,
        asc(organizationMembers.createdAt),
        asc(organizationMembers.userId),
      );
  }

  /** Renames the organisation (its slug stays: links keep working). */
  async rename(organizationId: string, name: string): Promise<void> {
    await this.db.update(organizations).set({ name }).where(eq(organizations.id, organizationId));
  }

  /** Deletes the organisation with its memberships and what it was given (cascades). */
  async delete(organizationId: string): Promise<void> {
    await this.db.delete(organizations).where(eq(organizations.id, organizationId));
  }

  /** Adds `userId` with `role`; false (and nothing changed) when they already belong. */
  async addMember(input: {
    organizationId: string;
    userId: string;
    role: OrganizationRole;
    createdAt: Date;
  }): Promise<boolean> {
    const rows = await this.db
      .insert(organizationMembers)
      .values(input)
      .onConflictDoNothing()
      .returning({ userId: organizationMembers.userId });
    return rows.length > 0;
  }

  /**
   * Removes `userId` from the organisation, unless they are its last admin (an organisation nobody can
   * manage could never be fixed).
   */
  async removeMember(organizationId: string, userId: string): Promise<RemoveMemberOutcome> {
    return this.db.transaction(async (tx) => {
      const role = await lockedRoleOf(tx, organizationId, userId);
      if (role === undefined) return 'not_member';
      if (role === 'admin' && (await adminCount(tx, organizationId)) <= 1) return 'last_admin';
      await tx.delete(organizationMembers).where(memberIs(organizationId, userId));
      return 'removed';
    });
  }

  /** Makes `userId` an admin or a plain member; the last admin cannot step down. */
  async setRole(organizationId: string, userId: string, role: OrganizationRole): Promise<SetRoleOutcome> {
    return this.db.transaction(async (tx) => {
      const current = await lockedRoleOf(tx, organizationId, userId);
      if (current === undefined) return 'not_member';
      if (current === role) return 'unchanged';
      if (current === 'admin' && (await adminCount(tx, organizationId)) <= 1) return 'last_admin';
      await tx.update(organizationMembers).set({ role }).where(memberIs(organizationId, userId));
      return 'changed';
    });
  }
}

function memberIs(organizationId: string, userId: string) {
  return and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId));
}

/**
 * The member's role, after locking the organisation row: two admins stepping down at once are
 * serialised, so they cannot both pass the "another admin remains" check.
 */
async function lockedRoleOf(
  tx: Db,
  organizationId: string,
  userId: string,
): Promise<OrganizationRole | undefined> {
  await tx
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .for('update');
  const [member] = await tx
    .select({ role: organizationMembers.role })
    .from(organizationMembers)
    .where(memberIs(organizationId, userId));
  return member?.role;
}

async function adminCount(tx: Db, organizationId: string): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(organizationMembers)
    .where(
      and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.role, 'admin')),
    );
  return Number(row?.n ?? 0);
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}
