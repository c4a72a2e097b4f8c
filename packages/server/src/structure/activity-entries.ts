import { usernameOf } from '../auth/username.js';
import type { NewActivity } from '../storage/activity-repository.js';
import type { TransactionalStorage } from '../storage/storage.js';
import type { UserRecord } from '../storage/user-repository.js';

/** One event of a write, before it is addressed to a feed. */
export interface ActivityEvent {
  verb: string;
  message: string;
  level: 1 | 2;
  childTargetLabel?: string | null;
  childContentTypeLabel?: string | null;
}

/** Whose feed, about what, by whom and when. */
export interface ActivitySubject {
  ownerId: string;
  actor: UserRecord;
  target: 'document' | 'blueprint';
  objectId: string;
  /** The title of the document or blueprint after the write. */
  targetLabel: string;
  at: Date;
}

// Keeps each INSERT well under PostgreSQL's 65,535 parameters, however big an import is.
const ENTRIES_PER_INSERT = 1_000;

/**
 * The actor as a feed names them: their name, else their username. Never the e-mail address: a feed may
 * one day be read by people the document is shared with.
 */
export function actorLabelOf(actor: Pick<UserRecord, 'firstName' | 'lastName' | 'email'>): string {
  return `${actor.firstName} ${actor.lastName}`.trim() || usernameOf(actor.email);
}

/** Records `events` in the subject's feed (in the caller's transaction). */
export async function recordActivity(
  tx: Pick<TransactionalStorage, 'activities'>,
  subject: ActivitySubject,
  events: readonly ActivityEvent[],
): Promise<void> {
  const entries: NewActivity[] = events.map((event) => ({
    ownerId: subject.ownerId,
    actorId: subject.actor.id,
    actorLabel: actorLabelOf(subject.actor),
    verb: event.verb,
    message: event.message,
    target: subject.target,
    objectId: subject.objectId,
    targetLabel: subject.targetLabel,
    childTargetLabel: event.childTargetLabel ?? null,
    childContentTypeLabel: event.childContentTypeLabel ?? null,
    level: event.level,
    createdAt: subject.at,
  }));
  for (let start = 0; start < entries.length; start += ENTRIES_PER_INSERT) {
    await tx.activities.record(entries.slice(start, start + ENTRIES_PER_INSERT));
  }
}
