import { SHARED_PLAN_ROLES } from '../db/schema.js';
import { HttpError } from '../http/http-error.js';
import { notFound } from '../structure/not-found.js';

/** The roles a shared plan gives people besides its owner, strongest first (docs/teams.md). */
export type SharedPlanRole = (typeof SHARED_PLAN_ROLES)[number];
/** Someone's role on a document: its owner, or what it was shared with them as. */
export type PlanRole = 'owner' | SharedPlanRole;
export { SHARED_PLAN_ROLES };

/** Whether `role` is one a plan can be shared as (an invitation's role may also be an organisation's). */
export function isSharedPlanRole(role: string): role is SharedPlanRole {
  return (SHARED_PLAN_ROLES as readonly string[]).includes(role);
}

/**
 * What a call does to a document, from the least to the most a role must allow (docs/teams.md "Roles"):
 * `read` (open, export, list members), `comment`, `edit` (content, sections, finalize, import, AI chat and
 * proposals), `share` (invite people), `own` (delete, settings, manage members and organisations).
 */
export type DocumentAction = 'read' | 'comment' | 'edit' | 'share' | 'own';

const STRENGTH: Readonly<Record<PlanRole, number>> = { viewer: 0, commenter: 1, editor: 2, owner: 3 };
const NEEDS: Readonly<Record<Exclude<DocumentAction, 'share'>, number>> = {
  read: STRENGTH.viewer,
  comment: STRENGTH.commenter,
  edit: STRENGTH.editor,
  own: STRENGTH.owner,
};

/** Whether one role gives at least what another does. */
export function atLeast(role: PlanRole, other: PlanRole): boolean {
  return STRENGTH[role] >= STRENGTH[other];
}

/** The stronger of two roles (a member of an organisation the plan is shared with, invited as well). */
export function strongerRole<R extends PlanRole>(a: R, b: R): R {
  return STRENGTH[a] >= STRENGTH[b] ? a : b;
}

/** What a caller's role on a document lets them do. */
export interface DocumentRole {
  role: PlanRole;
  /** The owner's setting: editors may invite people too. */
  editorsCanShare: boolean;
}

/** Whether `role` may do `action` on the document. */
export function mayDo(document: DocumentRole, action: DocumentAction): boolean {
  if (action === 'share')
    return document.role === 'owner' || (document.role === 'editor' && document.editorsCanShare);
  return STRENGTH[document.role] >= NEEDS[action];
}

const REFUSALS: Readonly<Record<DocumentAction, string>> = {
  read: 'You cannot open this document.',
  comment: 'Viewers of this document cannot comment on it.',
  edit: 'Your role on this document does not let you change it.',
  share: 'Only the owner can invite people to this document.',
  own: 'Only the owner of this document can do this.',
};

/**
 * The document when the caller may do `action` on it. A document that is absent or not shared with the
 * caller answers 404 "Document not found." (they are the same to the caller); one they see but may not do
 * this with answers 404 `{code: "not_permitted"}` naming why: never 403, which the specified client takes
 * for "signed out" (docs/http-api.md "Shared rules").
 */
export function permitted<T extends DocumentRole>(document: T | undefined, action: DocumentAction): T {
  if (!document) throw notFound('document');
  if (!mayDo(document, action)) throw notPermitted(action);
  return document;
}

/** The refusal of a call the caller's role on a document does not allow (see {@link permitted}). */
export function notPermitted(action: DocumentAction): HttpError {
  return new HttpError(404, 'not_permitted', REFUSALS[action]);
}
