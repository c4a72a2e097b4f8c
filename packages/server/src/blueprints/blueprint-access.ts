import { and, eq, exists, inArray, or, type SQL, sql } from 'drizzle-orm';
import { blueprintAllowedOrgs, blueprints } from '../db/schema.js';

/**
 * Who is looking at a blueprint: a signed-in user with the organisations they belong to, or null for
 * an anonymous visitor.
 */
export type BlueprintViewer = { userId: string; organizationIds: readonly string[] } | null;

/** Who may see a published blueprint (spec 000 §6). */
export type BlueprintVisibility = 'public' | 'restricted' | 'private' | 'unlisted';

/** The parts of a blueprint its visibility depends on. */
export interface BlueprintAccessFacts {
  /** Null for the seeded default. */
  ownerId: string | null;
  status: 'draft' | 'published';
  visibility: BlueprintVisibility;
  allowedOrgIds: readonly string[];
}

function isOwner(bp: { ownerId: string | null }, viewer: BlueprintViewer): boolean {
  return viewer !== null && bp.ownerId !== null && bp.ownerId === viewer.userId;
}

/**
 * Whether `viewer` may read `bp` by its id (the visibility table of docs/http-api.md): the owner
 * always; nobody else a draft; of published ones, public and unlisted to anyone, restricted to members
 * of an allowed organisation, private to nobody else.
 */
export function canReadBlueprint(bp: BlueprintAccessFacts, viewer: BlueprintViewer): boolean {
  if (isOwner(bp, viewer)) return true;
  if (bp.status !== 'published') return false;
  switch (bp.visibility) {
    case 'public':
    case 'unlisted':
      return true;
    case 'restricted':
      return viewer !== null && bp.allowedOrgIds.some((id) => viewer.organizationIds.includes(id));
    case 'private':
      return false;
  }
}

/**
 * Whether `bp` appears in `viewer`'s `blueprints/available/`: like {@link canReadBlueprint}, except
 * that another owner's unlisted blueprint is reachable only by link.
 */
export function isBlueprintListed(bp: BlueprintAccessFacts, viewer: BlueprintViewer): boolean {
  if (isOwner(bp, viewer)) return true;
  return bp.visibility !== 'unlisted' && canReadBlueprint(bp, viewer);
}

/**
 * The WHERE condition over `blueprints` for `blueprints/available/`, the SQL twin of
 * {@link isBlueprintListed}: the viewer's own (any status), others' published public ones, and
 * published restricted ones shared with an organisation the viewer belongs to. Anonymous viewers get
 * published public ones only.
 */
export function listedBlueprintsCondition(viewer: BlueprintViewer): SQL {
  const publishedPublic = and(eq(blueprints.status, 'published'), eq(blueprints.visibility, 'public'));
  if (viewer === null) return publishedPublic ?? sql`false`;
  const clauses: SQL[] = [eq(blueprints.ownerId, viewer.userId)];
  if (publishedPublic) clauses.push(publishedPublic);
  if (viewer.organizationIds.length > 0) {
    const shared = and(
      eq(blueprints.status, 'published'),
      eq(blueprints.visibility, 'restricted'),
      exists(
        sql`(select 1 from ${blueprintAllowedOrgs} where ${blueprintAllowedOrgs.blueprintId} = ${blueprints.id} and ${inArray(blueprintAllowedOrgs.organizationId, [...viewer.organizationIds])})`,
      ),
    );
    if (shared) clauses.push(shared);
  }
  return or(...clauses) ?? sql`false`;
}

/** Whether `viewer` may change or delete `bp`: its owner only; the seeded default (no owner) never. */
export function canChangeBlueprint(bp: { ownerId: string | null }, viewer: BlueprintViewer): boolean {
  return isOwner(bp, viewer);
}
