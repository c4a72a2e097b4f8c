import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BlueprintAccessFacts,
  type BlueprintViewer,
  type BlueprintVisibility,
  canChangeBlueprint,
  canReadBlueprint,
  isBlueprintListed,
  listedBlueprintsCondition,
} from '../../src/blueprints/blueprint-access.js';
import { type Database, openDatabase } from '../../src/db/database.js';
import { blueprintAllowedOrgs, blueprints, organizations, users } from '../../src/db/schema.js';

const VISIBILITIES: readonly BlueprintVisibility[] = ['public', 'restricted', 'private', 'unlisted'];
const STATUSES = ['draft', 'published'] as const;

const OWNER = '00000000-0000-4000-8000-00000000000a';
const MEMBER = '00000000-0000-4000-8000-00000000000b';
const OTHER = '00000000-0000-4000-8000-00000000000c';
const ALLOWED_ORG = '00000000-0000-4000-8000-0000000000a1';
const OTHER_ORG = '00000000-0000-4000-8000-0000000000a2';

type Role = 'owner' | 'member' | 'other' | 'anonymous';
const VIEWERS: Record<Role, BlueprintViewer> = {
  owner: { userId: OWNER, organizationIds: [OTHER_ORG] },
  member: { userId: MEMBER, organizationIds: [OTHER_ORG, ALLOWED_ORG] },
  other: { userId: OTHER, organizationIds: [OTHER_ORG] },
  anonymous: null,
};
const ROLES = Object.keys(VIEWERS) as Role[];

/**
 * docs/http-api.md "Blueprints", the visibility table, for published blueprints: whether each viewer
 * may read it by link, and whether it is listed in blueprints/available/.
 */
const PUBLISHED: Record<BlueprintVisibility, Record<Role, { read: boolean; listed: boolean }>> = {
  public: {
    owner: { read: true, listed: true },
    member: { read: true, listed: true },
    other: { read: true, listed: true },
    anonymous: { read: true, listed: true },
  },
  restricted: {
    owner: { read: true, listed: true },
    member: { read: true, listed: true },
    other: { read: false, listed: false },
    anonymous: { read: false, listed: false },
  },
  private: {
    owner: { read: true, listed: true },
    member: { read: false, listed: false },
    other: { read: false, listed: false },
    anonymous: { read: false, listed: false },
  },
  unlisted: {
    owner: { read: true, listed: true },
    member: { read: true, listed: false },
    other: { read: true, listed: false },
    anonymous: { read: true, listed: false },
  },
};

/** "Another user's draft is never visible, whatever its visibility"; the owner sees and lists their own. */
function expected(status: 'draft' | 'published', visibility: BlueprintVisibility, role: Role) {
  if (status === 'published') return PUBLISHED[visibility][role];
  return role === 'owner' ? { read: true, listed: true } : { read: false, listed: false };
}

function facts(
  status: 'draft' | 'published',
  visibility: BlueprintVisibility,
  allowedOrgIds: readonly string[] = [ALLOWED_ORG],
): BlueprintAccessFacts {
  return { ownerId: OWNER, status, visibility, allowedOrgIds };
}

describe('canReadBlueprint and isBlueprintListed: the whole matrix', () => {
  for (const visibility of VISIBILITIES) {
    for (const status of STATUSES) {
      for (const role of ROLES) {
        const want = expected(status, visibility, role);
        it(`${status} ${visibility}, ${role}: read ${want.read}, listed ${want.listed}`, () => {
          expect(canReadBlueprint(facts(status, visibility), VIEWERS[role])).toBe(want.read);
          expect(isBlueprintListed(facts(status, visibility), VIEWERS[role])).toBe(want.listed);
        });
      }
    }
  }

  it('shares a restricted blueprint with members of an allowed organisation only', () => {
    const bp = facts('published', 'restricted', [ALLOWED_ORG]);
    expect(canReadBlueprint(bp, { userId: OTHER, organizationIds: [] })).toBe(false);
    expect(canReadBlueprint(bp, { userId: OTHER, organizationIds: [OTHER_ORG] })).toBe(false);
    expect(canReadBlueprint(bp, { userId: OTHER, organizationIds: [ALLOWED_ORG] })).toBe(true);
    expect(canReadBlueprint(facts('published', 'restricted', []), VIEWERS.member)).toBe(false);
  });

  it('ignores allowed organisations on blueprints that are not restricted', () => {
    for (const visibility of ['private', 'unlisted'] as const) {
      expect(isBlueprintListed(facts('published', visibility, [ALLOWED_ORG]), VIEWERS.member)).toBe(false);
    }
    expect(canReadBlueprint(facts('published', 'private', [ALLOWED_ORG]), VIEWERS.member)).toBe(false);
  });

  it('reads the seeded default (no owner, published public) for everyone', () => {
    const seeded: BlueprintAccessFacts = {
      ownerId: null,
      status: 'published',
      visibility: 'public',
      allowedOrgIds: [],
    };
    for (const role of ROLES) {
      expect(canReadBlueprint(seeded, VIEWERS[role])).toBe(true);
      expect(isBlueprintListed(seeded, VIEWERS[role])).toBe(true);
    }
    // A draft without an owner belongs to nobody: nobody may read it.
    for (const role of ROLES)
      expect(canReadBlueprint({ ...seeded, status: 'draft' }, VIEWERS[role])).toBe(false);
  });
});

describe('canChangeBlueprint', () => {
  it('lets the owner change their blueprint, nobody else; the seeded default nobody', () => {
    expect(canChangeBlueprint({ ownerId: OWNER }, VIEWERS.owner)).toBe(true);
    for (const role of ['member', 'other', 'anonymous'] as const) {
      expect(canChangeBlueprint({ ownerId: OWNER }, VIEWERS[role])).toBe(false);
    }
    for (const role of ROLES) expect(canChangeBlueprint({ ownerId: null }, VIEWERS[role])).toBe(false);
  });
});

describe('listedBlueprintsCondition against a real database', () => {
  let dir: string;
  let database: Database;
  /** Every blueprint written, by id, with the facts the pure functions see. */
  const written = new Map<string, BlueprintAccessFacts>();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'planwright-access-test-'));
    database = await openDatabase({ kind: 'pglite', dataDir: join(dir, 'pglite') });
    const { db } = database;
    const at = new Date('2026-11-22T10:00:00.000Z');
    await db.insert(users).values(
      [OWNER, MEMBER, OTHER].map((id, i) => ({
        id,
        email: `u${i}@example.com`,
        emailKey: `u${i}@example.com`,
      })),
    );
    await db.insert(organizations).values([
      { id: ALLOWED_ORG, name: 'Allowed', slug: 'allowed', createdBy: OWNER, createdAt: at },
      { id: OTHER_ORG, name: 'Other', slug: 'other', createdBy: OTHER, createdAt: at },
    ]);
    // Every status × visibility, each with the allowed organisation, with another one and with none,
    // plus the same set owned by another user (so "own" is told apart from "others'"), plus the seeded default.
    const rows: Array<{ facts: BlueprintAccessFacts; title: string }> = [];
    for (const ownerId of [OWNER, OTHER]) {
      for (const visibility of VISIBILITIES) {
        for (const status of STATUSES) {
          for (const allowed of [[ALLOWED_ORG], [OTHER_ORG], []]) {
            rows.push({
              facts: { ownerId, status, visibility, allowedOrgIds: allowed },
              title: `${ownerId.slice(-1)} ${status} ${visibility} [${allowed.join(',')}]`,
            });
          }
        }
      }
    }
    rows.push({
      facts: { ownerId: null, status: 'published', visibility: 'public', allowedOrgIds: [] },
      title: 'seeded',
    });
    for (const row of rows) {
      const [inserted] = await db
        .insert(blueprints)
        .values({
          ownerId: row.facts.ownerId,
          title: row.title,
          status: row.facts.status,
          visibility: row.facts.visibility,
          isDefault: row.facts.ownerId === null,
          content: { type: 'doc', content: [] },
          createdAt: at,
          updatedAt: at,
        })
        .returning({ id: blueprints.id });
      if (!inserted) throw new Error('insert returned no row');
      if (row.facts.allowedOrgIds.length > 0) {
        await db
          .insert(blueprintAllowedOrgs)
          .values(
            row.facts.allowedOrgIds.map((organizationId) => ({ blueprintId: inserted.id, organizationId })),
          );
      }
      written.set(inserted.id, row.facts);
    }
  });
  afterAll(async () => {
    await database?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function listedIds(viewer: BlueprintViewer): Promise<string[]> {
    const rows = await database.db
      .select({ id: blueprints.id })
      .from(blueprints)
      .where(listedBlueprintsCondition(viewer));
    return rows.map((row) => row.id).sort();
  }

  function expectedIds(viewer: BlueprintViewer): string[] {
    return [...written]
      .filter(([, bp]) => isBlueprintListed(bp, viewer))
      .map(([id]) => id)
      .sort();
  }

  for (const role of ROLES) {
    it(`lists for ${role} exactly what isBlueprintListed allows`, async () => {
      const listed = await listedIds(VIEWERS[role]);
      expect(listed.length).toBeGreaterThan(0);
      expect(listed).toEqual(expectedIds(VIEWERS[role]));
    });
  }

  it('agrees for viewers in no organisation, in several, and in unknown ones', async () => {
    const viewers: BlueprintViewer[] = [
      { userId: MEMBER, organizationIds: [] },
      { userId: MEMBER, organizationIds: [ALLOWED_ORG, OTHER_ORG] },
      { userId: MEMBER, organizationIds: ['00000000-0000-4000-8000-0000000000ff'] },
      { userId: '00000000-0000-4000-8000-0000000000ee', organizationIds: [ALLOWED_ORG] },
    ];
    for (const viewer of viewers) expect(await listedIds(viewer)).toEqual(expectedIds(viewer));
  });

  it('lists every cell of the matrix as the table says (owner’s blueprints with the allowed organisation)', async () => {
    for (const role of ROLES) {
      const listed = new Set(await listedIds(VIEWERS[role]));
      for (const [id, bp] of written) {
        if (bp.ownerId !== OWNER || bp.allowedOrgIds.join() !== ALLOWED_ORG) continue;
        expect(listed.has(id), `${bp.status} ${bp.visibility} for ${role}`).toBe(
          expected(bp.status, bp.visibility, role).listed,
        );
      }
    }
  });

  it('never lists another user’s unlisted, private or draft blueprint', async () => {
    for (const role of ['member', 'other', 'anonymous'] as const) {
      for (const id of await listedIds(VIEWERS[role])) {
        const bp = written.get(id);
        if (!bp || bp.ownerId === VIEWERS[role]?.userId) continue;
        expect(bp.status).toBe('published');
        expect(['public', 'restricted']).toContain(bp.visibility);
      }
    }
  });
});
