import { type DocumentJson, progressOf } from '@planwright/sdk/model';
import type { DocumentChanges, DocumentHead } from '../storage/document-repository.js';
import type { TransactionalStorage } from '../storage/storage.js';
import type { UserRecord } from '../storage/user-repository.js';
import { type ActivityEvent, recordActivity } from '../structure/activity-entries.js';
import { needsTemplate, planStructure } from '../structure/plan-structure.js';
import type { SettingsOverrides } from '../structure/reconcile-sections.js';
import type { SectionRow } from '../structure/section-rows.js';
import { StaleWriteError } from '../structure/stale-write.js';

/** One write to a document: its fields, a new (normalised) tree, settings of named parts. */
export interface DocumentEdit {
  title?: string;
  description?: string;
  content?: DocumentJson;
  /**
   * `content` as JSON text when a worker thread already wrote it (documents/content-work.ts); `content`
   * may then be the tree's skeleton, which has its outline and progress.
   */
  contentJson?: string;
  settings?: SettingsOverrides;
}

/** The document after a write (its tree is the edit's, else the stored one), with its rows. */
export interface WrittenDocument {
  document: DocumentHead;
  sections: SectionRow[];
  /** The edit's tree as JSON text, as it was sent to the database; absent when the edit had none. */
  contentJson?: string;
}

/**
 * The one write path of a document (`PATCH documents/{uuid}/` and every section and subsection call):
 * the new tree's rows are reconciled with the stored ones, the document row is compare-and-set on the
 * revision it was read at, the rows are replaced and the activity recorded, all in the caller's
 * transaction. A write that changes nothing writes nothing and keeps the revision. `context.sections`
 * are the document's rows when the caller has just read them.
 *
 * The stored tree is never needed here, so callers need not read it (at 400 KiB, reading it costs
 * more than writing the new one): its outline is the rows', and whether a new tree differs from it
 * is asked of the database in the write itself.
 *
 * @throws StaleWriteError when another write changed the document since `doc` was read.
 */
export async function writeDocument(
  tx: TransactionalStorage,
  doc: DocumentHead,
  edit: DocumentEdit,
  context: {
    actor: UserRecord;
    now: Date;
    sections?: SectionRow[];
    /** What the write as a whole is (an import), recorded before its own events when it changes anything. */
    event?: ActivityEvent;
    /** The tree was derived from the live state (the revision it gets is recorded as derived). */
    fromLive?: boolean;
  },
): Promise<WrittenDocument> {
  const existing = context.sections ?? (await tx.documents.sectionsOf(doc.id));
  const { content } = edit;
  // A new part named after a blueprint part takes that part's settings (if the blueprint still exists).
  const template =
    content !== undefined && doc.blueprintId !== null && needsTemplate(content, existing)
      ? await tx.blueprints.sectionsOf(doc.blueprintId)
      : [];
  const plan = planStructure({
    existing,
    ...(content !== undefined ? { after: content } : {}),
    template,
    ...(edit.settings ? { overrides: edit.settings } : {}),
  });

  const changes: DocumentChanges = {
    updatedAt: context.now,
    ...(context.fromLive ? { fromLive: true } : {}),
  };
  const events: ActivityEvent[] = context.event ? [context.event] : [];
  if (edit.title !== undefined && edit.title !== doc.title) {
    changes.title = edit.title;
    events.push({
      verb: 'renamed',
      message: `renamed the document to ${JSON.stringify(edit.title)}`,
      level: 1,
    });
  }
  if (edit.description !== undefined && edit.description !== doc.description)
    changes.description = edit.description;
  // A changed outline is a change for sure; a tree alone may be the stored one, which the write tells.
  const changed = changes.title !== undefined || changes.description !== undefined || plan.rowsChanged;
  if (content !== undefined) {
    const progress = progressOf(content);
    changes.contentJson = edit.contentJson ?? JSON.stringify(content);
    changes.finalizedCount = progress.finalized;
    changes.subsectionCount = progress.total;
    events.push(...plan.events);
  }
  if (!changed && content === undefined) return { document: doc, sections: existing };
  const { contentJson } = changes;

  // Versions (docs/versions.md): while a plan is being written, it is kept as it was at most once an hour.
  if (content !== undefined) await keepHourly(tx, doc.id, context);
  const updated = await tx.documents.updateAt(doc.id, doc.revision, changes, { ifContentDiffers: !changed });
  if (!updated) {
    // Nothing was written: the tree is the stored one, unless another write got there first.
    if (!changed && (await tx.documents.revisionOf(doc.id)) === doc.revision) {
      return { document: doc, sections: existing, ...(contentJson !== undefined ? { contentJson } : {}) };
    }
    throw new StaleWriteError();
  }
  if (plan.rowsChanged) await tx.documents.replaceSections(doc.id, plan.rows);
  await recordActivity(
    tx,
    {
      ownerId: doc.ownerId,
      actor: context.actor,
      target: 'document',
      objectId: doc.id,
      targetLabel: updated.title,
      at: context.now,
    },
    events,
  );
  // The blueprint as the writer saw it (a blueprint they may no longer read stays unnamed: docs/teams.md).
  const document = { ...updated, blueprintTitle: doc.blueprintTitle };
  return { document, sections: plan.rows, ...(contentJson !== undefined ? { contentJson } : {}) };
}

/** How often, at most, a plan being written is kept as an automatic version. */
export const HOURLY_VERSION_MS = 60 * 60_000;

async function keepHourly(
  tx: Pick<TransactionalStorage, 'documentVersions'>,
  documentId: string,
  context: { actor: { id: string }; now: Date },
): Promise<void> {
  const latest = await tx.documentVersions.latestAt(documentId);
  if (latest && context.now.getTime() - latest.getTime() < HOURLY_VERSION_MS) return;
  await tx.documentVersions.keep({
    documentId,
    kind: 'hourly',
    name: null,
    createdBy: context.actor.id,
    at: context.now,
  });
}
