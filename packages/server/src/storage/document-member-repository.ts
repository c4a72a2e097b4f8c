import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import {
  documentMembers,
  documentOrganizationGrants,
  documents,
  organizationMembers,
  organizations,
  users,
} from '../db/schema.js';
import { isUuid } from '../db/uuid.js';
import type { SharedPlanRole } from '../documents/document-access.js';
import { inScope } from './document-repository.js';

/** Someone a document is shared with, with what other members may see of their account. */
export interface DocumentMemberRecord {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  role: SharedPlanRole;
  createdAt: Date;
}

/** An organisation a document is shared with. */
export interface OrganizationGrantRecord {
  organizationId: string;
  name: string;
  role: SharedPlanRole;
  createdAt: Date;
}

/** Someone `userId` shares plans with, and how many. */
export interface TeammateRecord {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  plans: number;
}

/** How many teammates {@link DocumentMemberRepository.teamOf} answers at most. */
export const TEAM_LIMIT = 200;

/**
 * Who a document is shared with (docs/teams.md): its members, the organisations it is shared with and its
 * invitations. Its owner is the document's own `owner_id`, never a member row.
 */
export class DocumentMemberRepository {
  constructor(private readonly db: Db) {}

  /** The document's members, the strongest roles first, then in the order they joined. */
  async members(documentId: string): Promise<DocumentMemberRecord[]> {
    return this.db
      .select({
        userId: documentMembers.userId,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
        role: documentMembers.role,
        createdAt: documentMembers.createdAt,
      })
      .from(documentMembers)
      .innerJoin(users, eq(users.id, documentMembers.userId))
      .where(eq(documentMembers.documentId, documentId))
      .orderBy(
        sql`case ${documentMembers.role} when 'editor' then 0 when 'commenter' then 1 else 2 end`,
        asc(documentMembers.createdAt),
        asc(documentMembers.userId),
      );
  }

  /** The member's own role on the document (not through an organisation), if they are one. */
  async roleOf(documentId: string, userId: string): Promise<SharedPlanRole | undefined> {
    if (!isUuid(userId)) return undefined;
    const [row] = await this.db
      .select({ role: documentMembers.role })
      .from(documentMembers)
      .where(and(eq(documentMembers.documentId, documentId), eq(documentMembers.userId, userId)));
    return row?.role;
  }

  /** Makes `userId` a member with `role`, or gives an existing member that role. */
  async put(input: { documentId: string; userId: string; role: SharedPlanRole; addedBy: string; at: Date }) {
    await this.db
      .insert(documentMembers)
      .values({
        documentId: input.documentId,
        userId: input.userId,
        role: input.role,
        addedBy: input.addedBy,
        createdAt: input.at,
      })
      .onConflictDoUpdate({
        target: [documentMembers.documentId, documentMembers.userId],
        set: { role: input.role },
      });
  }

  /** Changes a member's role; false when they are not a member. */
  async setRole(documentId: string, userId: string, role: SharedPlanRole): Promise<boolean> {
    if (!isUuid(userId)) return false;
    const rows = await this.db
      .update(documentMembers)
      .set({ role })
      .where(and(eq(documentMembers.documentId, documentId), eq(documentMembers.userId, userId)))
      .returning({ userId: documentMembers.userId });
    return rows.length > 0;
  }

  /** Removes a member; false when they were not one. */
  async remove(documentId: string, userId: string): Promise<boolean> {
    if (!isUuid(userId)) return false;
    const rows = await this.db
      .delete(documentMembers)
      .where(and(eq(documentMembers.documentId, documentId), eq(documentMembers.userId, userId)))
      .returning({ userId: documentMembers.userId });
    return rows.length > 0;
  }

  /** The organisations the document is shared with, by name. */
  async grants(documentId: string): Promise<OrganizationGrantRecord[]> {
    return this.db
      .select({
        organizationId: documentOrganizationGrants.organizationId,
        name: organizations.name,
        role: documentOrganizationGrants.role,
        createdAt: documentOrganizationGrants.createdAt,
      })
      .from(documentOrganizationGrants)
      .innerJoin(organizations, eq(organizations.id, documentOrganizationGrants.organizationId))
      .where(eq(documentOrganizationGrants.documentId, documentId))
      .orderBy(asc(organizations.name), asc(organizations.id));
  }

  /** Shares the document with an organisation's members as `role` (or changes the role it has). */
  async grant(input: { documentId: string; organizationId: string; role: SharedPlanRole; at: Date }) {
    await this.db
      .insert(documentOrganizationGrants)
      .values({ ...input, createdAt: input.at })
      .onConflictDoUpdate({
        target: [documentOrganizationGrants.documentId, documentOrganizationGrants.organizationId],
        set: { role: input.role },
      });
  }

  /** Stops sharing the document with an organisation; false when it was not shared with it. */
  async revokeGrant(documentId: string, organizationId: string): Promise<boolean> {
    if (!isUuid(organizationId)) return false;
    const rows = await this.db
      .delete(documentOrganizationGrants)
      .where(
        and(
          eq(documentOrganizationGrants.documentId, documentId),
          eq(documentOrganizationGrants.organizationId, organizationId),
        ),
      )
      .returning({ id: documentOrganizationGrants.organizationId });
    return rows.length > 0;
  }

  /** The ids of the documents shared with an organisation (whose members' access changes with it). */
  async documentsGrantedTo(organizationId: string): Promise<string[]> {
    const rows = await this.db
      .select({ id: documentOrganizationGrants.documentId })
      .from(documentOrganizationGrants)
      .where(eq(documentOrganizationGrants.organizationId, organizationId));
    return rows.map((row) => row.id);
  }

  /**
   * Everyone with a role on the document: its owner, its members, and the members of the organisations it is
   * shared with (whom a comment may mention).
   */
  async peopleOf(documentId: string): Promise<Array<Omit<DocumentMemberRecord, 'role' | 'createdAt'>>> {
    return this.db
      .selectDistinct({
        userId: users.id,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
      })
      .from(users)
      .where(
        sql`${users.id} in (
            select ${documents.ownerId} from ${documents} where ${documents.id} = ${documentId}
            union select ${documentMembers.userId} from ${documentMembers} where ${documentMembers.documentId} = ${documentId}
            union select ${organizationMembers.userId} from ${organizationMembers}
              join ${documentOrganizationGrants} on ${documentOrganizationGrants.organizationId} = ${organizationMembers.organizationId}
              where ${documentOrganizationGrants.documentId} = ${documentId})`,
      );
  }

  /**
   * The people `userId` shares plans with: the owners and members of the documents they own or that are shared
   * with them (not every member of an organisation a plan is shared with), most shared plans first.
   */
  async teamOf(userId: string): Promise<{ items: TeammateRecord[]; total: number }> {
    const seen = this.db
      .$with('seen')
      .as(
        this.db
          .select({ id: documents.id, ownerId: documents.ownerId })
          .from(documents)
          .where(inScope(userId, 'all')),
      );
    const rows = await this.db
      .with(seen)
      .select({
        userId: users.id,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
        plans: sql<number>`count(distinct people.document_id)::int`,
        total: sql<number>`(count(*) over ())::int`,
      })
      .from(
        sql`(select ${seen.ownerId} as user_id, ${seen.id} as document_id from ${seen}
             union
             select ${documentMembers.userId}, ${documentMembers.documentId} from ${documentMembers}
               join ${seen} on ${seen.id} = ${documentMembers.documentId}) as people`,
      )
      .innerJoin(users, sql`${users.id} = people.user_id`)
      .where(sql`people.user_id <> ${userId}`)
      .groupBy(users.id)
      .orderBy(sql`count(distinct people.document_id) desc`, asc(users.emailKey))
      .limit(TEAM_LIMIT);
    return { items: rows.map(({ total: _total, ...row }) => row), total: rows[0]?.total ?? 0 };
  }
}
