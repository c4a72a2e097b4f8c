import { isDeepStrictEqual } from 'node:util';
import type { DocumentJson } from '@planwright/sdk/model';
import { HttpError } from '../http/http-error.js';
import type { BlueprintChanges, BlueprintRecord } from '../storage/blueprint-repository.js';
import type { TransactionalStorage } from '../storage/storage.js';
import type { UserRecord } from '../storage/user-repository.js';
import { type ActivityEvent, recordActivity } from '../structure/activity-entries.js';
import { planStructure } from '../structure/plan-structure.js';
import type { SettingsOverrides } from '../structure/reconcile-sections.js';
import type { SectionRow } from '../structure/section-rows.js';
import { StaleWriteError } from '../structure/stale-write.js';

/** One write to a blueprint: any of its fields, a new (normalised) tree, settings of named parts. */
export interface BlueprintEdit {
  title?: string;
  description?: string;
  systemPrompt?: string;
  content?: DocumentJson;
  status?: 'draft' | 'published';
  version?: number;
  visibility?: BlueprintRecord['visibility'];
  allowedOrgs?: string[];
  /** The client's clock when it published (`published_at` in the body). */
  publishedAt?: Date | null;
  settings?: SettingsOverrides;
}

/** The blueprint after a write, with its rows. */
export interface WrittenBlueprint {
  blueprint: BlueprintRecord;
  sections: SectionRow[];
}

/** Blueprint subsections are never finalized: `finalized` is a document's. */
export function withoutFinalized(doc: DocumentJson): DocumentJson {
  return {
    ...doc,
    content: doc.content.map((section) => ({
      ...section,
      content: section.content.map((child) =>
        child.type === 'subsection' && child.attrs.finalized
          ? { ...child, attrs: { ...child.attrs, finalized: false } }
          : child,
      ) as typeof section.content,
    })),
  };
}

function sameMembers(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && [...a].sort().join() === [...b].sort().join();
}

/**
 * The one write path of a blueprint (`PUT`/`PATCH blueprints/{uuid}/` and every section and subsection
 * call), like {@link writeDocument}'s: rows reconciled from the tree, compare-and-set on the revision it
 * was read at, rows, shared organisations and activity written in the caller's transaction. Applies
 * the publication rule and keeps `allowed_orgs` only for restricted blueprints, and only organisations
 * in `ownerOrganizationIds` (else 400 naming `allowed_orgs`).
 *
 * @throws StaleWriteError when another write changed the blueprint since `bp` was read.
 */
export async function writeBlueprint(
  tx: TransactionalStorage,
  bp: BlueprintRecord,
  edit: BlueprintEdit,
  context: {
    actor: UserRecord;
    now: Date;
    ownerOrganizationIds: readonly string[];
    sections?: SectionRow[];
    /** The tree was derived from the live state (the revision it gets is recorded as derived). */
    fromLive?: boolean;
  },
): Promise<WrittenBlueprint> {
  const { now } = context;
  const existing = context.sections ?? (await tx.blueprints.sectionsOf(bp.id));
  const sent = edit.content === undefined ? undefined : withoutFinalized(edit.content);
  const content = sent !== undefined && !isDeepStrictEqual(sent, bp.content) ? sent : undefined;
  const plan = planStructure({
    before: bp.content,
    after: content ?? bp.content,
    existing,
    ...(edit.settings ? { overrides: edit.settings } : {}),
  });

  const changes: BlueprintChanges = { updatedAt: now, ...(context.fromLive ? { fromLive: true } : {}) };
  const events: ActivityEvent[] = [];
  const title = edit.title ?? bp.title;
  if (title !== bp.title) {
    changes.title = title;
    events.push({ verb: 'renamed', message: `renamed the blueprint to ${JSON.stringify(title)}`, level: 1 });
  }
  if (edit.description !== undefined && edit.description !== bp.description)
    changes.description = edit.description;
  if (edit.systemPrompt !== undefined && edit.systemPrompt !== bp.systemPrompt)
    changes.systemPrompt = edit.systemPrompt;
  const version = edit.version ?? bp.version;
  // A version names one content for good: documents record the version they were made from.
  if (version < bp.version) {
    throw new HttpError(400, 'invalid', 'Invalid input: version', [
      { param: 'version', code: 'version_decrease', message: `Version cannot go below ${bp.version}.` },
    ]);
  }
  if (version !== bp.version) changes.version = version;

  const status = edit.status ?? bp.status;
  // `published_at` is when the current version was published: set when publishing and when a published
  // blueprint's version goes up, kept otherwise. The client's clock is believed, but never ahead of ours.
  const newPublication = status === 'published' && (bp.status !== 'published' || version > bp.version);
  const clientClock =
    edit.publishedAt && edit.publishedAt.getTime() <= now.getTime() ? edit.publishedAt : now;
  const publishedAt =
    status === 'draft' ? null : newPublication ? clientClock : (bp.publishedAt ?? clientClock);
  if (newPublication) {
    const what =
      bp.status === 'published'
        ? `version ${version} of the blueprint`
        : `the blueprint (version ${version})`;
    events.push({ verb: 'published', message: `published ${what} ${JSON.stringify(title)}`, level: 1 });
  }
  if (status !== bp.status) {
    changes.status = status;
    if (status === 'draft') {
      events.push({
        verb: 'unpublished',
        message: `unpublished the blueprint ${JSON.stringify(title)}`,
        level: 1,
      });
    }
  }
  if (publishedAt?.getTime() !== bp.publishedAt?.getTime()) changes.publishedAt = publishedAt;

  const visibility = edit.visibility ?? bp.visibility;
  if (visibility !== bp.visibility) {
    changes.visibility = visibility;
    events.push({
      verb: 'changed visibility',
      message: `changed the visibility of the blueprint to ${visibility}`,
      level: 1,
    });
  }
  const allowedOrgs = visibility === 'restricted' ? (edit.allowedOrgs ?? bp.allowedOrgIds) : [];
  if (visibility === 'restricted' && edit.allowedOrgs !== undefined) {
    const foreign = edit.allowedOrgs.filter((id) => !context.ownerOrganizationIds.includes(id));
    if (foreign.length > 0) {
      throw new HttpError(400, 'invalid', 'Invalid input: allowed_orgs', [
        {
          param: 'allowed_orgs',
          code: 'invalid_organization',
          message: 'Choose organisations you belong to.',
        },
      ]);
    }
  }
  const allowedChanged = !sameMembers(allowedOrgs, bp.allowedOrgIds);

  if (content !== undefined) {
    changes.content = content;
    events.push(...plan.events);
  }
  const changed = Object.keys(changes).some((key) => key !== 'updatedAt' && key !== 'fromLive');
  if (!changed && !plan.rowsChanged && !allowedChanged) {
    return { blueprint: bp, sections: existing };
  }

  const updated = await tx.blueprints.updateAt(bp.id, bp.revision, changes);
  if (!updated) throw new StaleWriteError();
  if (plan.rowsChanged) await tx.blueprints.replaceSections(bp.id, plan.rows);
  if (allowedChanged) await tx.blueprints.setAllowedOrgs(bp.id, allowedOrgs);
  if (bp.ownerId !== null) {
    await recordActivity(
      tx,
      {
        ownerId: bp.ownerId,
        actor: context.actor,
        target: 'blueprint',
        objectId: bp.id,
        targetLabel: updated.title,
        at: now,
      },
      events,
    );
  }
  const blueprint = allowedChanged ? await tx.blueprints.findById(bp.id) : updated;
  if (!blueprint) throw new StaleWriteError();
  return { blueprint, sections: plan.rows };
}
