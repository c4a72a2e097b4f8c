import { randomUUID } from 'node:crypto';
import { LIVE_REFUSED, type LiveDocumentSnapshot, openLiveDocument } from '@planwright/sdk/live';
import { routeTable } from '@planwright/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type ListeningApp, startListeningApp } from '../support/listening-app.js';
import { signUpWithSdk } from '../support/sdk-accounts.js';

// The authorisation matrix of docs/security.md ("The matrix"): every HTTP route and the sockets, called by an
// anonymous visitor, another user, a member of the owner's organisation, the owner, and the people the owner's
// document is shared with as viewer, commenter and editor (docs/teams.md "Roles").

type Actor = 'anonymous' | 'other' | 'member' | 'owner' | PlanMember;
type PlanMember = 'viewer' | 'commenter' | 'editor';
const PLAN_MEMBERS: readonly PlanMember[] = ['viewer', 'commenter', 'editor'];
// The owner last: their calls delete things.
const ACTORS: readonly Actor[] = ['anonymous', 'other', 'member', ...PLAN_MEMBERS, 'owner'];

/**
 * What an actor must get. `ok`: 2xx. `allowed`: past every access check (not 401/403/404, not 5xx).
 * `hidden`: 404, exactly as the same call with ids that do not exist (nothing tells the two apart).
 * `refused`: the document is theirs to see but their role does not allow the call: 404 `not_permitted`.
 * `open`: an endpoint without an owner (sign-in, health, pages): any answer but 5xx. A number: that status.
 */
type Expectation = 'ok' | 'allowed' | 'hidden' | 'refused' | 'open' | number;

/** The ids the calls are made with; `missing()` gives the same shape with fresh uuids. */
interface Ids {
  document: string;
  section: string;
  subsection: string;
  /** Another section and its subsection, for the editor's deletions (the owner's come after). */
  editorSection: string;
  editorSubsection: string;
  blueprint: string;
  blueprintSection: string;
  blueprintSubsection: string;
  organization: string;
  /** An organisation only the owner belongs to: sharing the document with it gives nobody else access. */
  soloOrganization: string;
  ownerUsername: string;
  /** The viewer's user id, and a member the owner removes. */
  viewerId: string;
  leaverId: string;
  /** A pending invitation of the document (to an address without an account). */
  invitation: string;
  /** A pending invitation of the organisation (to an address without an account). */
  organizationInvitation: string;
  /** A named version of the document. */
  version: string;
  /** A share link of the document, and its URL's path (`/s/{token}`). */
  shareLink: string;
  sharePath: string;
  /** A comment thread of the owner's on the document, and its first message. */
  thread: string;
  message: string;
}

interface Call {
  path: string;
  body?: unknown;
  form?: () => FormData;
  headers?: Record<string, string>;
}

interface MatrixEntry {
  /** `METHOD url` as the route table registers it, trailing slash dropped. */
  route: string;
  /** The call as `actor` makes it (deletions give the editor a target of their own). */
  call: (ids: Ids, actor: Actor) => Call;
  /** The plan members' answers default to `other`'s: beyond the owner's document, they are other users. */
  expect: Record<Exclude<Actor, PlanMember>, Expectation> & Partial<Record<PlanMember, Expectation>>;
}

/** What the plan's members get, by role: read < comment < edit (docs/teams.md "Roles"). */
const byRole = (
  viewer: Expectation,
  commenter: Expectation,
  editor: Expectation,
): Record<PlanMember, Expectation> => ({ viewer, commenter, editor });
const READ_ROLES = byRole('ok', 'ok', 'ok');
const EDIT_ROLES = byRole('refused', 'refused', 'allowed');
const OWNER_ROLE = byRole('refused', 'refused', 'refused');

type Expectations = MatrixEntry['expect'];
const SELF: Expectations = { anonymous: 401, other: 'ok', member: 'ok', owner: 'ok' };
const SELF_ALLOWED: Expectations = {
  anonymous: 401,
  other: 'allowed',
  member: 'allowed',
  owner: 'allowed',
};
const OPEN: Expectations = { anonymous: 'open', other: 'open', member: 'open', owner: 'open' };
const OWNED_READ: Expectations = {
  anonymous: 401,
  other: 'hidden',
  member: 'hidden',
  owner: 'ok',
};
const OWNED_WRITE: Expectations = {
  anonymous: 401,
  other: 'hidden',
  member: 'hidden',
  owner: 'allowed',
};
/** Managed by administrators (the `planwright-admin` command), never over HTTP. */
const ADMIN_ONLY: Expectations = { anonymous: 401, other: 403, member: 403, owner: 403 };

const doc = (ids: Ids) => `documents/${ids.document}`;
const section = (ids: Ids) => `${doc(ids)}/sections/${ids.section}`;
const subsection = (ids: Ids) => `${section(ids)}/subsections/${ids.subsection}`;
const editorsOwn = (ids: Ids): Ids => ({
  ...ids,
  section: ids.editorSection,
  subsection: ids.editorSubsection,
});
const bp = (ids: Ids) => `blueprints/${ids.blueprint}`;
const bpSection = (ids: Ids) => `${bp(ids)}/sections/${ids.blueprintSection}`;
const bpSubsection = (ids: Ids) => `${bpSection(ids)}/subsections/${ids.blueprintSubsection}`;
const markdownFile = () => {
  const form = new FormData();
  form.set('file', new Blob(['# Imported\n\nText.\n'], { type: 'text/markdown' }), 'plan.md');
  return form;
};
const api = (path: string) => `/api/v1/${path}`;
const rename = { title: 'Renamed by the matrix' };

/** The account-security routes of one allauth client: the app's answer 401 or their own; the browser's are open. */
function securityEntries(base: string, client: 'app' | 'browser'): MatrixEntry[] {
  const own = (status: number): Expectations =>
    client === 'app' ? { anonymous: 401, other: status, member: status, owner: status } : OPEN;
  // A number no session has: ending it ends nothing, so the actors stay signed in.
  const nobody = 2 ** 40;
  return [
    { route: `GET ${base}/auth/sessions`, call: () => ({ path: `${base}/auth/sessions` }), expect: own(200) },
    {
      route: `DELETE ${base}/auth/sessions`,
      call: () => ({ path: `${base}/auth/sessions`, body: { sessions: [nobody] } }),
      expect: own(200),
    },
    {
      route: `POST ${base}/auth/reauthenticate`,
      call: () => ({ path: `${base}/auth/reauthenticate`, body: {} }),
      expect: own(400),
    },
    {
      route: `POST ${base}/account/password/change`,
      call: () => ({ path: `${base}/account/password/change`, body: {} }),
      expect: own(400),
    },
    { route: `GET ${base}/account/email`, call: () => ({ path: `${base}/account/email` }), expect: own(200) },
    // An empty body is refused before anything is added, resent, made primary or removed.
    ...(['POST', 'PUT', 'PATCH', 'DELETE'] as const).map((method) => ({
      route: `${method} ${base}/account/email`,
      call: () => ({ path: `${base}/account/email`, body: {} }),
      expect: own(400),
    })),
    {
      route: `GET ${base}/account/tokens`,
      call: () => ({ path: `${base}/account/tokens` }),
      expect: own(200),
    },
    {
      route: `POST ${base}/account/tokens`,
      call: () => ({ path: `${base}/account/tokens`, body: {} }),
      expect: own(400),
    },
    {
      route: `DELETE ${base}/account/tokens/:id`,
      call: () => ({ path: `${base}/account/tokens/${nobody}` }),
      expect: own(404),
    },
    // Two-factor: the caller's own authenticators only; none of the actors has one.
    {
      route: `GET ${base}/account/authenticators`,
      call: () => ({ path: `${base}/account/authenticators` }),
      expect: own(200),
    },
    {
      route: `GET ${base}/account/authenticators/totp`,
      call: () => ({ path: `${base}/account/authenticators/totp` }),
      expect: own(404),
    },
    {
      route: `POST ${base}/account/authenticators/totp`,
      call: () => ({ path: `${base}/account/authenticators/totp`, body: {} }),
      expect: own(400),
    },
    {
      route: `DELETE ${base}/account/authenticators/totp`,
      call: () => ({ path: `${base}/account/authenticators/totp` }),
      expect: own(200),
    },
    {
      route: `GET ${base}/account/authenticators/recovery-codes`,
      call: () => ({ path: `${base}/account/authenticators/recovery-codes` }),
      expect: own(404),
    },
    {
      route: `POST ${base}/account/authenticators/recovery-codes`,
      call: () => ({ path: `${base}/account/authenticators/recovery-codes`, body: {} }),
      expect: own(400),
    },
    {
      route: `POST ${base}/auth/2fa/authenticate`,
      call: () => ({ path: `${base}/auth/2fa/authenticate`, body: { code: '123456' } }),
      expect: client === 'app' ? { anonymous: 401, other: 401, member: 401, owner: 401 } : OPEN,
    },
    {
      route: `POST ${base}/auth/2fa/reauthenticate`,
      call: () => ({ path: `${base}/auth/2fa/reauthenticate`, body: { code: '123456' } }),
      expect: own(400),
    },
  ];
}

/** Every route, in the order they run: reads and writes first, deletions last (deepest first). */
const MATRIX: MatrixEntry[] = [
  // Health, site, contact and the system prompt: no owner.
  { route: 'GET /api/v1/health', call: () => ({ path: api('health') }), expect: OPEN },
  { route: 'GET /api/v1/apps/csrf', call: () => ({ path: api('apps/csrf/') }), expect: OPEN },
  {
    route: 'POST /api/v1/apps/contact',
    call: () => ({ path: api('apps/contact/'), body: {} }),
    expect: { anonymous: 400, other: 400, member: 400, owner: 400 },
  },
  {
    route: 'GET /api/v1/website/stripe-config',
    call: () => ({ path: api('website/stripe-config/') }),
    expect: OPEN,
  },
  { route: 'GET /api/v1/website/config', call: () => ({ path: api('website/config/') }), expect: OPEN },
  {
    route: 'POST /api/v1/users/resend-verification',
    call: () => ({ path: api('users/resend-verification/'), body: {} }),
    expect: OPEN,
  },
  {
    route: 'GET /api/v1/apps/global-system-prompt',
    call: () => ({ path: api('apps/global-system-prompt/') }),
    expect: OPEN,
  },
  ...(['POST', 'PUT', 'PATCH', 'DELETE'] as const).map(
    (method): MatrixEntry => ({
      route: `${method} /api/v1/apps/global-system-prompt`,
      call: () => ({ path: api('apps/global-system-prompt/'), body: { prompt: 'x' } }),
      expect: ADMIN_ONLY,
    }),
  ),
  // The caller's own things: lists, creation, profile, AI usage and tools without a document.
  { route: 'GET /api/v1/app/me', call: () => ({ path: api('app/me/') }), expect: SELF },
  {
    route: 'PUT /api/v1/app/me',
    call: () => ({ path: api('app/me/'), body: { first_name: 'Matrix' } }),
    expect: SELF_ALLOWED,
  },
  {
    route: 'PATCH /api/v1/app/me',
    call: () => ({ path: api('app/me/'), body: { first_name: 'Matrix' } }),
    expect: SELF_ALLOWED,
  },
  { route: 'GET /api/v1/documents', call: () => ({ path: api('documents/') }), expect: SELF },
  {
    route: 'POST /api/v1/documents',
    call: () => ({ path: api('documents/'), body: { title: 'Own' } }),
    expect: SELF_ALLOWED,
  },
  { route: 'GET /api/v1/blueprints', call: () => ({ path: api('blueprints/') }), expect: SELF },
  {
    route: 'POST /api/v1/blueprints',
    call: () => ({ path: api('blueprints/'), body: {} }),
    expect: SELF_ALLOWED,
  },
  {
    route: 'GET /api/v1/blueprints/available',
    call: () => ({ path: api('blueprints/available/') }),
    expect: { anonymous: 'ok', other: 'ok', member: 'ok', owner: 'ok' },
  },
  { route: 'GET /api/v1/organizations', call: () => ({ path: api('organizations/') }), expect: SELF },
  { route: 'GET /api/v1/organization', call: () => ({ path: api('organization/') }), expect: SELF },
  {
    route: 'POST /api/v1/organizations',
    call: () => ({ path: api('organizations/'), body: { name: 'Own org' } }),
    expect: SELF_ALLOWED,
  },
  { route: 'GET /api/v1/team', call: () => ({ path: api('team/') }), expect: SELF },
  // Invitations addressed to the caller: their own address decides, nothing names another user.
  { route: 'GET /api/v1/invitations', call: () => ({ path: api('invitations/') }), expect: SELF },
  {
    route: 'POST /api/v1/invitations/accept',
    call: () => ({ path: api('invitations/accept/'), body: { token: 'no-such-link' } }),
    expect: SELF_ALLOWED,
  },
  {
    // Addressed to nobody here: as absent to everyone as a missing one.
    route: 'POST /api/v1/invitations/:id/accept',
    call: (ids) => ({ path: api(`invitations/${ids.invitation}/accept/`), body: {} }),
    expect: { anonymous: 401, other: 'hidden', member: 'hidden', owner: 'hidden' },
  },
  {
    route: 'GET /api/v1/activities/activities',
    call: () => ({ path: api('activities/activities/') }),
    expect: SELF,
  },
  { route: 'GET /api/v1/apps/ai/provider', call: () => ({ path: api('apps/ai/provider/') }), expect: SELF },
  { route: 'GET /api/v1/apps/ai/usage', call: () => ({ path: api('apps/ai/usage/') }), expect: SELF },
  {
    route: 'POST /api/v1/apps/ai/attachments',
    call: () => ({ path: api('apps/ai/attachments/'), form: markdownFile }),
    expect: SELF,
  },
  {
    route: 'POST /api/v1/apps/tiptap/convert/jwt',
    call: () => ({ path: api('apps/tiptap/convert/jwt/'), body: {} }),
    expect: SELF,
  },
  {
    // Bearer-token only: the session is not enough, so every actor without a conversion token gets 401.
    route: 'POST /api/v1/apps/tiptap/convert/export',
    call: () => ({
      path: api('apps/tiptap/convert/export/'),
      body: { content: { type: 'doc' }, format: 'md' },
    }),
    expect: { anonymous: 401, other: 401, member: 401, owner: 401 },
  },
  // Things that name the owner's document.
  {
    route: 'POST /api/v1/apps/ai/transform',
    call: (ids) => ({
      path: api('apps/ai/transform/'),
      body: { text: 'Some text.', action: 'shorten', document_uuid: ids.document },
    }),
    expect: { ...OWNED_WRITE, ...EDIT_ROLES },
  },
  {
    route: 'GET /api/v1/chats',
    call: (ids) => ({ path: api(`chats/?target=document&object_id=${ids.document}`) }),
    expect: { ...OWNED_READ, ...byRole('refused', 'refused', 'ok') },
  },
  {
    route: 'POST /api/v1/chats',
    call: (ids) => ({
      path: api('chats/'),
      body: { target: 'section', object_id: ids.section, document_uuid: ids.document },
    }),
    expect: { ...OWNED_WRITE, ...EDIT_ROLES },
  },
  {
    route: 'GET /api/v1/documents/:uuid',
    call: (ids) => ({ path: api(`${doc(ids)}/`) }),
    expect: { ...OWNED_READ, ...READ_ROLES },
  },
  {
    route: 'PATCH /api/v1/documents/:uuid',
    call: (ids) => ({ path: api(`${doc(ids)}/`), body: rename }),
    expect: { ...OWNED_WRITE, ...EDIT_ROLES },
  },
  {
    route: 'PUT /api/v1/documents/:uuid',
    call: (ids) => ({ path: api(`${doc(ids)}/`), body: rename }),
    expect: { ...OWNED_WRITE, ...EDIT_ROLES },
  },
  {
    route: 'GET /api/v1/documents/:uuid/export',
    call: (ids) => ({ path: api(`${doc(ids)}/export?format=md`) }),
    expect: { ...OWNED_READ, ...READ_ROLES },
  },
  {
    route: 'GET /api/v1/documents/:uuid/ai/context',
    call: (ids) => ({ path: api(`${doc(ids)}/ai/context/`) }),
    expect: { ...OWNED_READ, ...byRole('refused', 'refused', 'ok') },
  },
  {
    route: 'POST /api/v1/documents/:uuid/import',
    call: (ids) => ({ path: api(`${doc(ids)}/import/`), form: markdownFile }),
    expect: { ...OWNED_WRITE, ...EDIT_ROLES },
  },
  {
    route: 'POST /api/v1/documents/:uuid/sections',
    call: (ids) => ({ path: api(`${doc(ids)}/sections/`), body: { title: 'Added' } }),
    expect: { ...OWNED_WRITE, ...EDIT_ROLES },
  },
  {
    route: 'GET /api/v1/documents/:uuid/sections/:sid',
    call: (ids) => ({ path: api(`${section(ids)}/`) }),
    expect: { ...OWNED_READ, ...READ_ROLES },
  },
  {
    route: 'PATCH /api/v1/documents/:uuid/sections/:sid',
    call: (ids) => ({ path: api(`${section(ids)}/`), body: rename }),
    expect: { ...OWNED_WRITE, ...EDIT_ROLES },
  },
  {
    route: 'PUT /api/v1/documents/:uuid/sections/:sid',
    call: (ids) => ({ path: api(`${section(ids)}/`), body: rename }),
    expect: { ...OWNED_WRITE, ...EDIT_ROLES },
  },
  {
    route: 'PUT /api/v1/documents/:uuid/sections/:sid/content',
    call: (ids) => ({ path: api(`${section(ids)}/content/`), body: { content: [] } }),
    expect: { ...OWNED_WRITE, ...EDIT_ROLES },
  },
  {
    route: 'POST /api/v1/documents/:uuid/sections/:sid/subsections',
    call: (ids) => ({ path: api(`${section(ids)}/subsections/`), body: { title: 'Added' } }),
    expect: { ...OWNED_WRITE, ...EDIT_ROLES },
  },
  {
    route: 'GET /api/v1/documents/:uuid/sections/:sid/subsections/:sub',
    call: (ids) => ({ path: api(`${subsection(ids)}/`) }),
    expect: { ...OWNED_READ, ...READ_ROLES },
  },
  {
    route: 'PATCH /api/v1/documents/:uuid/sections/:sid/subsections/:sub',
    call: (ids) => ({ path: api(`${subsection(ids)}/`), body: rename }),
    expect: { ...OWNED_WRITE, ...EDIT_ROLES },
  },
  {
    route: 'PUT /api/v1/documents/:uuid/sections/:sid/subsections/:sub',
    call: (ids) => ({ path: api(`${subsection(ids)}/`), body: rename }),
    expect: { ...OWNED_WRITE, ...EDIT_ROLES },
  },
  // Who the document is shared with: everyone on it lists the members; the owner manages them.
  {
    route: 'GET /api/v1/documents/:uuid/members',
    call: (ids) => ({ path: api(`${doc(ids)}/members/`) }),
    expect: { ...OWNED_READ, ...READ_ROLES },
  },
  {
    route: 'PATCH /api/v1/documents/:uuid/members',
    call: (ids) => ({ path: api(`${doc(ids)}/members/`), body: { editors_can_share: false } }),
    expect: { ...OWNED_WRITE, ...OWNER_ROLE },
  },
  {
    // The viewer's own role, unchanged: past every check for the owner, and nothing changes.
    route: 'PATCH /api/v1/documents/:uuid/members/:user',
    call: (ids) => ({ path: api(`${doc(ids)}/members/${ids.viewerId}/`), body: { role: 'viewer' } }),
    expect: { ...OWNED_WRITE, ...OWNER_ROLE },
  },
  {
    // Editors invite only when the owner allows it (not here).
    route: 'POST /api/v1/documents/:uuid/invitations',
    call: (ids) => ({
      path: api(`${doc(ids)}/invitations/`),
      body: { email: `invitee-${randomUUID()}@matrix.example`, role: 'viewer' },
    }),
    expect: { ...OWNED_WRITE, ...OWNER_ROLE },
  },
  // Share links: made, listed and turned off by those who may invite people (docs/versions.md "Share links").
  {
    route: 'GET /api/v1/documents/:uuid/share-links',
    call: (ids) => ({ path: api(`${doc(ids)}/share-links/`) }),
    expect: { ...OWNED_READ, ...OWNER_ROLE },
  },
  {
    route: 'GET /api/v1/documents/:uuid/share-links/:link',
    call: (ids) => ({ path: api(`${doc(ids)}/share-links/${ids.shareLink}/`) }),
    expect: { ...OWNED_READ, ...OWNER_ROLE },
  },
  {
    route: 'POST /api/v1/documents/:uuid/share-links',
    call: (ids) => ({ path: api(`${doc(ids)}/share-links/`), body: { label: 'Matrix' } }),
    expect: { ...OWNED_WRITE, ...OWNER_ROLE },
  },
  {
    route: 'POST /api/v1/documents/:uuid/share-links/find',
    call: (ids) => ({ path: api(`${doc(ids)}/share-links/find/`), body: { url: ids.sharePath } }),
    expect: { ...OWNED_READ, ...OWNER_ROLE },
  },
  {
    route: 'DELETE /api/v1/documents/:uuid/share-links/:link',
    call: (ids) => ({ path: api(`${doc(ids)}/share-links/${ids.shareLink}/`) }),
    expect: { ...OWNED_WRITE, ...OWNER_ROLE },
  },
  {
    route: 'POST /api/v1/documents/:uuid/invitations/:id/resend',
    call: (ids) => ({ path: api(`${doc(ids)}/invitations/${ids.invitation}/resend/`), body: {} }),
    expect: { ...OWNED_WRITE, ...OWNER_ROLE },
  },
  {
    route: 'PUT /api/v1/documents/:uuid/organizations/:organization',
    call: (ids) => ({
      path: api(`${doc(ids)}/organizations/${ids.soloOrganization}/`),
      body: { role: 'viewer' },
    }),
    expect: { ...OWNED_WRITE, ...OWNER_ROLE },
  },
  // Comments: everyone on the plan reads them; commenters and up write; each changes only their own messages.
  {
    route: 'GET /api/v1/documents/:uuid/comments',
    call: (ids) => ({ path: api(`${doc(ids)}/comments/`) }),
    expect: { ...OWNED_READ, ...READ_ROLES },
  },
  {
    route: 'GET /api/v1/documents/:uuid/versions',
    call: (ids) => ({ path: api(`${doc(ids)}/versions/`) }),
    expect: { ...OWNED_READ, ...READ_ROLES },
  },
  {
    route: 'GET /api/v1/documents/:uuid/versions/:version',
    call: (ids) => ({ path: api(`${doc(ids)}/versions/${ids.version}/`) }),
    expect: { ...OWNED_READ, ...READ_ROLES },
  },
  {
    route: 'GET /api/v1/documents/:uuid/diff',
    call: (ids) => ({ path: api(`${doc(ids)}/diff/?from=${ids.version}`) }),
    expect: { ...OWNED_READ, ...READ_ROLES },
  },
  {
    route: 'POST /api/v1/documents/:uuid/versions',
    call: (ids) => ({
      path: api(`${doc(ids)}/versions/`),
      body: { name: `Kept ${randomUUID().slice(0, 8)}` },
    }),
    expect: { ...OWNED_WRITE, ...EDIT_ROLES },
  },
  {
    route: 'POST /api/v1/documents/:uuid/versions/:version/restore',
    call: (ids) => ({ path: api(`${doc(ids)}/versions/${ids.version}/restore/`), body: {} }),
    expect: { ...OWNED_WRITE, ...EDIT_ROLES },
  },
  {
    route: 'POST /api/v1/documents/:uuid/comments',
    call: (ids) => ({
      path: api(`${doc(ids)}/comments/`),
      body: { subsection: ids.subsection, body: 'A thought.' },
    }),
    expect: { ...OWNED_WRITE, ...byRole('refused', 'allowed', 'allowed') },
  },
  {
    route: 'POST /api/v1/documents/:uuid/comments/:thread/messages',
    call: (ids) => ({ path: api(`${doc(ids)}/comments/${ids.thread}/messages/`), body: { body: 'Agreed.' } }),
    expect: { ...OWNED_WRITE, ...byRole('refused', 'allowed', 'allowed') },
  },
  {
    route: 'PATCH /api/v1/documents/:uuid/comments/:thread',
    call: (ids) => ({ path: api(`${doc(ids)}/comments/${ids.thread}/`), body: { status: 'open' } }),
    expect: { ...OWNED_WRITE, ...byRole('refused', 'allowed', 'allowed') },
  },
  {
    // The owner's own first message: the others are refused (never theirs), the owner edits it.
    route: 'PATCH /api/v1/documents/:uuid/comments/:thread/messages/:message',
    call: (ids) => ({
      path: api(`${doc(ids)}/comments/${ids.thread}/messages/${ids.message}/`),
      body: { body: 'Edited.' },
    }),
    expect: { ...OWNED_WRITE, ...byRole('refused', 'refused', 'refused') },
  },
  // The owner's draft blueprint (published ones: the visibility table below).
  {
    route: 'GET /api/v1/blueprints/:uuid',
    call: (ids) => ({ path: api(`${bp(ids)}/`) }),
    expect: { ...OWNED_READ, anonymous: 'hidden' },
  },
  {
    route: 'PATCH /api/v1/blueprints/:uuid',
    call: (ids) => ({ path: api(`${bp(ids)}/`), body: rename }),
    expect: OWNED_WRITE,
  },
  {
    route: 'PUT /api/v1/blueprints/:uuid',
    call: (ids) => ({ path: api(`${bp(ids)}/`), body: rename }),
    expect: OWNED_WRITE,
  },
  {
    route: 'POST /api/v1/blueprints/:uuid/sections',
    call: (ids) => ({ path: api(`${bp(ids)}/sections/`), body: { title: 'Added' } }),
    expect: OWNED_WRITE,
  },
  {
    route: 'GET /api/v1/blueprints/:uuid/sections/:sid',
    call: (ids) => ({ path: api(`${bpSection(ids)}/`) }),
    expect: { ...OWNED_READ, anonymous: 'hidden' },
  },
  {
    route: 'PATCH /api/v1/blueprints/:uuid/sections/:sid',
    call: (ids) => ({ path: api(`${bpSection(ids)}/`), body: rename }),
    expect: OWNED_WRITE,
  },
  {
    route: 'PUT /api/v1/blueprints/:uuid/sections/:sid',
    call: (ids) => ({ path: api(`${bpSection(ids)}/`), body: rename }),
    expect: OWNED_WRITE,
  },
  {
    route: 'PUT /api/v1/blueprints/:uuid/sections/:sid/content',
    call: (ids) => ({ path: api(`${bpSection(ids)}/content/`), body: { content: [] } }),
    expect: OWNED_WRITE,
  },
  {
    route: 'POST /api/v1/blueprints/:uuid/sections/:sid/subsections',
    call: (ids) => ({ path: api(`${bpSection(ids)}/subsections/`), body: { title: 'Added' } }),
    expect: OWNED_WRITE,
  },
  {
    route: 'GET /api/v1/blueprints/:uuid/sections/:sid/subsections/:sub',
    call: (ids) => ({ path: api(`${bpSubsection(ids)}/`) }),
    expect: { ...OWNED_READ, anonymous: 'hidden' },
  },
  {
    route: 'PATCH /api/v1/blueprints/:uuid/sections/:sid/subsections/:sub',
    call: (ids) => ({ path: api(`${bpSubsection(ids)}/`), body: rename }),
    expect: OWNED_WRITE,
  },
  {
    route: 'PUT /api/v1/blueprints/:uuid/sections/:sid/subsections/:sub',
    call: (ids) => ({ path: api(`${bpSubsection(ids)}/`), body: rename }),
    expect: OWNED_WRITE,
  },
  {
    route: 'POST /api/v1/blueprints/:uuid/publish',
    call: (ids) => ({ path: api(`${bp(ids)}/publish/`), body: { visibility: 'private' } }),
    expect: OWNED_WRITE,
  },
  {
    route: 'POST /api/v1/blueprints/:uuid/unpublish',
    call: (ids) => ({ path: api(`${bp(ids)}/unpublish/`), body: {} }),
    expect: OWNED_WRITE,
  },
  // The owner's organisation: its member reads it but may not manage it.
  {
    route: 'GET /api/v1/organizations/:id',
    call: (ids) => ({ path: api(`organizations/${ids.organization}/`) }),
    expect: { anonymous: 401, other: 'hidden', member: 'ok', owner: 'ok' },
  },
  {
    route: 'PATCH /api/v1/organizations/:id',
    call: (ids) => ({ path: api(`organizations/${ids.organization}/`), body: { name: 'Owner & Co' } }),
    expect: OWNED_WRITE,
  },
  {
    // The owner is the only admin: stepping down is refused (409), which is past the access check.
    route: 'PATCH /api/v1/organizations/:id/members/:username',
    call: (ids) => ({
      path: api(`organizations/${ids.organization}/members/${ids.ownerUsername}/`),
      body: { role: 'admin' },
    }),
    expect: OWNED_WRITE,
  },
  {
    route: 'POST /api/v1/organizations/:id/members',
    call: (ids) => ({
      path: api(`organizations/${ids.organization}/members/`),
      body: { email: 'nobody@example.com' },
    }),
    expect: OWNED_WRITE,
  },
  {
    route: 'POST /api/v1/organizations/:id/invitations',
    call: (ids) => ({
      path: api(`organizations/${ids.organization}/invitations/`),
      body: { email: `invitee-${randomUUID()}@matrix.example` },
    }),
    expect: OWNED_WRITE,
  },
  {
    route: 'POST /api/v1/organizations/:id/invitations/:invitation/resend',
    call: (ids) => ({
      path: api(`organizations/${ids.organization}/invitations/${ids.organizationInvitation}/resend/`),
      body: {},
    }),
    expect: OWNED_WRITE,
  },
  // Deletions, deepest first, the owner's last of all.
  {
    route: 'DELETE /api/v1/organizations/:id/invitations/:invitation',
    call: (ids) => ({
      path: api(`organizations/${ids.organization}/invitations/${ids.organizationInvitation}/`),
    }),
    expect: OWNED_WRITE,
  },
  {
    route: 'DELETE /api/v1/organizations/:id/members/:username',
    call: (ids) => ({ path: api(`organizations/${ids.organization}/members/${ids.ownerUsername}/`) }),
    // The owner is the only admin: removing them is refused (409), which is past the access check.
    expect: { anonymous: 401, other: 'hidden', member: 'hidden', owner: 'allowed' },
  },
  {
    route: 'DELETE /api/v1/documents/:uuid/comments/:thread/messages/:message',
    call: (ids) => ({ path: api(`${doc(ids)}/comments/${ids.thread}/messages/${ids.message}/`) }),
    expect: { ...OWNED_WRITE, ...byRole('refused', 'refused', 'refused') },
  },
  {
    route: 'DELETE /api/v1/documents/:uuid/invitations/:id',
    call: (ids) => ({ path: api(`${doc(ids)}/invitations/${ids.invitation}/`) }),
    expect: { ...OWNED_WRITE, ...OWNER_ROLE },
  },
  {
    route: 'DELETE /api/v1/documents/:uuid/organizations/:organization',
    call: (ids) => ({ path: api(`${doc(ids)}/organizations/${ids.soloOrganization}/`) }),
    expect: { ...OWNED_WRITE, ...OWNER_ROLE },
  },
  {
    // The organisation only the owner belongs to: deleting it takes nothing from the other checks.
    route: 'DELETE /api/v1/organizations/:id',
    call: (ids) => ({ path: api(`organizations/${ids.soloOrganization}/`) }),
    expect: { anonymous: 401, other: 'hidden', member: 'hidden', owner: 'allowed' },
  },
  {
    // Another member: only the owner removes people (each member may remove only themselves: leave).
    route: 'DELETE /api/v1/documents/:uuid/members/:user',
    call: (ids) => ({ path: api(`${doc(ids)}/members/${ids.leaverId}/`) }),
    expect: { ...OWNED_WRITE, ...OWNER_ROLE },
  },
  {
    route: 'DELETE /api/v1/documents/:uuid/sections/:sid/subsections/:sub',
    call: (ids, actor) => ({ path: api(`${subsection(actor === 'editor' ? editorsOwn(ids) : ids)}/`) }),
    expect: { ...OWNED_WRITE, ...EDIT_ROLES },
  },
  {
    route: 'DELETE /api/v1/documents/:uuid/sections/:sid',
    call: (ids, actor) => ({ path: api(`${section(actor === 'editor' ? editorsOwn(ids) : ids)}/`) }),
    expect: { ...OWNED_WRITE, ...EDIT_ROLES },
  },
  {
    route: 'DELETE /api/v1/documents/:uuid',
    call: (ids) => ({ path: api(`${doc(ids)}/`) }),
    expect: { ...OWNED_WRITE, ...OWNER_ROLE },
  },
  {
    route: 'DELETE /api/v1/blueprints/:uuid/sections/:sid/subsections/:sub',
    call: (ids) => ({ path: api(`${bpSubsection(ids)}/`) }),
    expect: OWNED_WRITE,
  },
  {
    route: 'DELETE /api/v1/blueprints/:uuid/sections/:sid',
    call: (ids) => ({ path: api(`${bpSection(ids)}/`) }),
    expect: OWNED_WRITE,
  },
  {
    route: 'DELETE /api/v1/blueprints/:uuid',
    call: (ids) => ({ path: api(`${bp(ids)}/`) }),
    expect: OWNED_WRITE,
  },
  // Accounts (django-allauth headless): who you are comes from your own token; nothing names another user.
  ...(['app', 'browser'] as const).flatMap((client): MatrixEntry[] => {
    const base = `/_allauth/${client}/v1`;
    return [
      { route: `GET ${base}/config`, call: () => ({ path: `${base}/config` }), expect: OPEN },
      {
        route: `GET ${base}/auth/session`,
        call: () => ({ path: `${base}/auth/session` }),
        expect: client === 'app' ? { anonymous: 401, other: 200, member: 200, owner: 200 } : OPEN,
      },
      // The account's security (docs/auth.md): only the caller's own sessions and tokens, by their own token. The
      // browser client's unsafe calls need its cookie and CSRF token, which the matrix does not send. Before
      // signing out, which ends the actor's session.
      ...securityEntries(base, client),
      // Signing out is checked by the session tests; here only that it never fails open.
      {
        route: `DELETE ${base}/auth/session`,
        call: () => ({ path: `${base}/auth/session`, headers: { 'x-session-token': 'not-a-session' } }),
        expect: OPEN,
      },
      {
        route: `POST ${base}/auth/signup`,
        call: () => ({ path: `${base}/auth/signup`, body: {} }),
        expect: OPEN,
      },
      {
        route: `POST ${base}/auth/login`,
        call: () => ({ path: `${base}/auth/login`, body: {} }),
        expect: OPEN,
      },
      {
        route: `GET ${base}/auth/email/verify`,
        call: () => ({ path: `${base}/auth/email/verify` }),
        expect: OPEN,
      },
      {
        route: `POST ${base}/auth/email/verify`,
        call: () => ({ path: `${base}/auth/email/verify`, body: { key: 'x' } }),
        expect: OPEN,
      },
      {
        route: `POST ${base}/auth/password/request`,
        call: () => ({ path: `${base}/auth/password/request`, body: {} }),
        expect: OPEN,
      },
      {
        route: `GET ${base}/auth/password/reset`,
        call: () => ({ path: `${base}/auth/password/reset` }),
        expect: OPEN,
      },
      {
        route: `POST ${base}/auth/password/reset`,
        call: () => ({ path: `${base}/auth/password/reset`, body: {} }),
        expect: OPEN,
      },
    ];
  }),
  {
    route: 'POST /_allauth/browser/v1/auth/provider/redirect',
    call: () => ({ path: '/_allauth/browser/v1/auth/provider/redirect', body: {} }),
    expect: OPEN,
  },
  {
    route: 'POST /accounts/google/login',
    call: () => ({ path: '/accounts/google/login/', body: {} }),
    expect: OPEN,
  },
  {
    route: 'GET /accounts/google/login/callback',
    call: () => ({ path: '/accounts/google/login/callback/' }),
    expect: OPEN,
  },
  // Share links' reader pages: the token is the access, whoever asks (docs/versions.md "Share links").
  { route: 'GET /s/:token', call: (ids) => ({ path: ids.sharePath }), expect: OPEN },
  { route: 'POST /s/:token', call: (ids) => ({ path: ids.sharePath, body: {} }), expect: OPEN },
  {
    route: 'GET /s/:token/download/:format',
    call: (ids) => ({ path: `${ids.sharePath}/download/docx` }),
    expect: OPEN,
  },
  {
    route: 'POST /s/:token/read',
    call: (ids) => ({ path: `${ids.sharePath}/read`, body: { view: randomUUID(), sections: {} } }),
    expect: OPEN,
  },
  { route: 'GET /s/_/:file', call: () => ({ path: '/s/_/reader.css' }), expect: OPEN },
  // The web app's pages and files, and the sockets' plain-HTTP answers (the sockets: tests of their own).
  { route: 'GET /', call: () => ({ path: '/' }), expect: OPEN },
  { route: 'GET /*', call: () => ({ path: '/dashboard/documents' }), expect: OPEN },
  {
    route: 'GET /ws/document/*',
    call: (ids) => ({ path: `/ws/document/${ids.document}/chat/` }),
    expect: { anonymous: 426, other: 426, member: 426, owner: 426 },
  },
  {
    route: 'GET /ws/collab',
    call: () => ({ path: '/ws/collab/' }),
    expect: { anonymous: 426, other: 426, member: 426, owner: 426 },
  },
];

let server: ListeningApp;
const tokens = {} as Record<Exclude<Actor, 'anonymous'> | 'leaver', string>;
let ids: Ids;
let listed: { documents: string[]; blueprints: Record<string, string> };

const isPlanMember = (actor: Actor): actor is PlanMember =>
  (PLAN_MEMBERS as readonly Actor[]).includes(actor);
const code = (res: { body: unknown }) => (res.body as { code?: unknown } | null)?.code;

function key(method: string, url: string): string {
  return `${method} ${url.length > 1 ? url.replace(/\/$/, '') : url}`;
}

async function send(method: string, actor: Actor, call: Call): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = { ...call.headers };
  if (actor !== 'anonymous') headers['x-session-token'] = tokens[actor];
  let body: BodyInit | undefined;
  if (call.form) body = call.form();
  else if (call.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(call.body);
  }
  // Redirects are answers too: following them would leave this server (PUBLIC_URL).
  const res = await fetch(`${server.url}${call.path}`, {
    method,
    headers,
    redirect: 'manual',
    ...(body ? { body } : {}),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Pages and files are not JSON.
  }
  return { status: res.status, body: parsed };
}

async function json(method: string, actor: Actor, path: string, body?: unknown) {
  const res = await send(method, actor, { path: api(path), ...(body !== undefined ? { body } : {}) });
  expect(res.status, `${method} ${path} as ${actor}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body as Record<string, unknown> & { data: Array<Record<string, unknown>> };
}

function missingIds(): Ids {
  return {
    document: randomUUID(),
    section: randomUUID(),
    subsection: randomUUID(),
    editorSection: randomUUID(),
    editorSubsection: randomUUID(),
    blueprint: randomUUID(),
    blueprintSection: randomUUID(),
    blueprintSubsection: randomUUID(),
    organization: randomUUID(),
    soloOrganization: randomUUID(),
    ownerUsername: 'nobody-here',
    viewerId: randomUUID(),
    leaverId: randomUUID(),
    invitation: randomUUID(),
    organizationInvitation: randomUUID(),
    version: randomUUID(),
    shareLink: randomUUID(),
    sharePath: `/s/${'M'.repeat(43)}`,
    thread: randomUUID(),
    message: randomUUID(),
  };
}

beforeAll(async () => {
  server = await startListeningApp();
  const userIds: Record<string, string> = {};
  for (const actor of ['owner', 'other', 'member', ...PLAN_MEMBERS, 'leaver'] as const) {
    const account = await signUpWithSdk(server, `${actor}@matrix.example`);
    tokens[actor] = account.tokenStore.getToken() ?? '';
    userIds[actor] = String((await account.client.auth.me()).id);
  }
  const org = await json('POST', 'owner', 'organizations/', { name: 'Owner & Co' });
  await json('POST', 'owner', `organizations/${org.id}/members/`, { email: 'member@matrix.example' });
  const solo = await json('POST', 'owner', 'organizations/', { name: 'Owner alone' });
  const document = await json('POST', 'owner', 'documents/', { title: 'Secret plan' });
  // The document is shared with one person per role (and one the owner removes), each accepting by id.
  const roles = { viewer: 'viewer', commenter: 'commenter', editor: 'editor', leaver: 'viewer' } as const;
  for (const [actor, role] of Object.entries(roles) as Array<[keyof typeof roles, string]>) {
    await json('POST', 'owner', `documents/${document.uuid}/invitations/`, {
      email: `${actor}@matrix.example`,
      role,
    });
    const [received] = (await json('GET', actor as PlanMember, 'invitations/')).data;
    await json('POST', actor as PlanMember, `invitations/${received?.id}/accept/`, {});
  }
  const firstSubsection = (document.sections as Array<{ subsections: Array<{ uuid: string }> }>)[0]
    ?.subsections[0];
  const thread = await json('POST', 'owner', `documents/${document.uuid}/comments/`, {
    subsection: firstSubsection?.uuid,
    body: 'The owner asks.',
  });
  const pending = await json('POST', 'owner', `documents/${document.uuid}/invitations/`, {
    email: 'no-account-yet@matrix.example',
    role: 'commenter',
  });
  const version = await json('POST', 'owner', `documents/${document.uuid}/versions/`, { name: 'As shared' });
  const shareLink = await json('POST', 'owner', `documents/${document.uuid}/share-links/`, {
    label: 'Matrix',
  });
  const orgPending = await json('POST', 'owner', `organizations/${org.id}/invitations/`, {
    email: 'no-account-yet@matrix.example',
  });
  const sections = document.sections as Array<{ uuid: string; subsections: Array<{ uuid: string }> }>;
  const blueprint = await json('POST', 'owner', 'blueprints/', { title: 'Draft blueprint' });
  const bpSection = await json('POST', 'owner', `blueprints/${blueprint.uuid}/sections/`, { title: 'S' });
  const bpSectionUuid = String(bpSection.uuid ?? '');
  const bpSub = await json(
    'POST',
    'owner',
    `blueprints/${blueprint.uuid}/sections/${bpSectionUuid}/subsections/`,
    {
      title: 'SS',
    },
  );
  ids = {
    document: String(document.uuid),
    section: sections[0]?.uuid ?? '',
    subsection: sections[0]?.subsections[0]?.uuid ?? '',
    editorSection: sections[1]?.uuid ?? '',
    editorSubsection: sections[1]?.subsections[0]?.uuid ?? '',
    blueprint: String(blueprint.uuid),
    blueprintSection: bpSectionUuid,
    blueprintSubsection: String(bpSub.uuid ?? ''),
    organization: String(org.id),
    soloOrganization: String(solo.id),
    ownerUsername: 'owner',
    viewerId: userIds.viewer ?? '',
    leaverId: userIds.leaver ?? '',
    invitation: String(pending.id),
    organizationInvitation: String(orgPending.id),
    version: String(version.id),
    shareLink: String(shareLink.id),
    sharePath: new URL(String(shareLink.url)).pathname,
    thread: String(thread.id),
    message: String((thread.messages as Array<{ id: string }>)[0]?.id ?? ''),
  };
  // One published blueprint per visibility, for the visibility table and the lists.
  listed = { documents: [ids.document], blueprints: {} };
  for (const visibility of ['public', 'restricted', 'private', 'unlisted'] as const) {
    const made = await json('POST', 'owner', 'blueprints/', { title: `Published ${visibility}` });
    await json('POST', 'owner', `blueprints/${made.uuid}/publish/`, {
      visibility,
      ...(visibility === 'restricted' ? { allowed_orgs: [ids.organization] } : {}),
    });
    listed.blueprints[visibility] = String(made.uuid);
  }
  await json('POST', 'owner', 'chats/', { target: 'document', object_id: ids.document });
}, 300_000);

afterAll(async () => {
  await server?.close();
});

describe('authorisation matrix (docs/security.md)', () => {
  it('SEC-A1: every route in the server route table has a matrix entry, and every entry a route', () => {
    const routes = new Set(
      routeTable(server.app)
        .filter((route) => route.method !== 'HEAD' && route.method !== 'OPTIONS')
        .map((route) => key(route.method, route.url)),
    );
    const entries = new Set(MATRIX.map((entry) => entry.route));
    expect(
      [...routes].filter((route) => !entries.has(route)),
      'routes without a matrix entry',
    ).toEqual([]);
    expect(
      [...entries].filter((entry) => !routes.has(entry)),
      'matrix entries without a route',
    ).toEqual([]);
    expect(entries.size).toBe(MATRIX.length);
  });

  it("SEC-A3: lists never hold another user's document, chat, activity or organisation", async () => {
    for (const actor of ['other', 'member'] as const) {
      const everything = JSON.stringify([
        await json('GET', actor, 'documents/?page_size=100'),
        await json('GET', actor, `documents/?search=${encodeURIComponent('Secret plan')}`),
        await json('GET', actor, 'blueprints/?page_size=100'),
        await json('GET', actor, 'activities/activities/?page_size=100'),
        await json('GET', actor, `activities/activities/?target=document&object_id=${ids.document}`),
        await json('GET', actor, `chats/?target=section&object_id=${ids.section}`),
        await json('GET', actor, 'apps/ai/usage/'),
      ]);
      for (const id of [
        ids.document,
        ids.blueprint,
        ids.section,
        ids.subsection,
        'Secret plan',
        'owner@matrix',
      ])
        expect(everything, `${actor} sees ${id}`).not.toContain(id);
    }
    const otherOrgs = JSON.stringify(await json('GET', 'other', 'organizations/'));
    expect(otherOrgs).not.toContain(ids.organization);
    const me = await json('GET', 'other', 'app/me/');
    expect(me.email).toBe('other@matrix.example');
  });

  it('SEC-A4: published blueprints follow the visibility table, by id and in blueprints/available/', async () => {
    const table: Record<string, Record<Exclude<Actor, PlanMember>, boolean>> = {
      public: { anonymous: true, other: true, member: true, owner: true },
      restricted: { anonymous: false, other: false, member: true, owner: true },
      private: { anonymous: false, other: false, member: false, owner: true },
      unlisted: { anonymous: true, other: true, member: true, owner: true },
    };
    const inList: Record<string, Record<Exclude<Actor, PlanMember>, boolean>> = {
      ...table,
      unlisted: { anonymous: false, other: false, member: false, owner: true },
    };
    const failures: string[] = [];
    for (const actor of ACTORS) {
      const available = JSON.stringify(
        (await send('GET', actor, { path: api('blueprints/available/?page_size=100') })).body,
      );
      for (const [visibility, uuid] of Object.entries(listed.blueprints)) {
        const read = await send('GET', actor, { path: api(`blueprints/${uuid}/`) });
        // The document's members are other users to the owner's blueprints.
        const as: Exclude<Actor, PlanMember> = isPlanMember(actor) ? 'other' : actor;
        const readable = table[visibility]?.[as] ?? false;
        if (read.status !== (readable ? 200 : 404))
          failures.push(`${visibility} by id as ${actor}: ${read.status}`);
        // A reader of a restricted blueprint is told the allowed organisations they belong to, no others.
        if (visibility === 'restricted' && actor === 'member') {
          const allowed = (read.body as { allowed_orgs?: unknown }).allowed_orgs;
          if (JSON.stringify(allowed) !== JSON.stringify([ids.organization]))
            failures.push(`restricted allowed_orgs as member: ${JSON.stringify(allowed)}`);
        }
        if (available.includes(uuid) !== (inList[visibility]?.[as] ?? false))
          failures.push(`${visibility} in available/ as ${actor}: ${available.includes(uuid)}`);
        // Reading is not changing: only the owner may write, whatever the visibility.
        if (actor !== 'owner') {
          const write = await send('PATCH', actor, { path: api(`blueprints/${uuid}/`), body: rename });
          if (write.status !== (actor === 'anonymous' ? 401 : 404))
            failures.push(`${visibility} PATCH as ${actor}: ${write.status}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("SEC-A5: the chat socket closes 4401, 4404 (another user's document too) or 4403 (foreign Origin), and opens for the owner", async () => {
    const base = server.url.replace(/^http/, 'ws');
    const closeOf = (path: string, actor: Actor, origin?: string) =>
      new Promise<number | 'open'>((resolve, reject) => {
        // Anonymous sends a token that is no session (without one the socket waits for an auth frame).
        const token = actor === 'anonymous' ? 'no-such-session' : tokens[actor];
        const ws = new WebSocket(`${base}${path}`, origin ? { origin } : {});
        ws.on('open', () => ws.send(JSON.stringify({ type: 'authenticate', token })));
        ws.on('message', (data) => {
          if (String(data).includes('"authenticated"')) {
            ws.close(1000);
            resolve('open');
          }
        });
        ws.on('close', (code) => resolve(code));
        ws.on('error', reject);
      });
    const path = `/ws/document/${ids.document}/section/${ids.section}/chat/`;
    expect(await closeOf(path, 'anonymous')).toBe(4401);
    // Another user's document is closed exactly like a missing one: the code tells nothing.
    expect(await closeOf(path, 'other')).toBe(4404);
    expect(await closeOf(path, 'member')).toBe(4404);
    // Chatting is for editors: a viewer or commenter of the plan is closed like anyone else.
    expect(await closeOf(path, 'viewer')).toBe(4404);
    expect(await closeOf(path, 'commenter')).toBe(4404);
    expect(await closeOf(path, 'editor')).toBe('open');
    expect(await closeOf(path, 'owner')).toBe('open');
    expect(await closeOf(path, 'owner', 'https://evil.example')).toBe(4403);
    expect(await closeOf(`/ws/document/${randomUUID()}/chat/`, 'owner')).toBe(4404);
    expect(await closeOf(`/ws/document/${ids.document}/section/${randomUUID()}/chat/`, 'owner')).toBe(4404);
    expect(await closeOf(`/ws/document/${ids.document}/chat/${randomUUID()}/`, 'owner')).toBe(4404);
  });

  it("SEC-A6: the live-plan socket refuses everyone the plan is not shared with alike (another user's plan as a missing one), sends them nothing of it, and lets only editors change it", async () => {
    const outcome = (actor: Actor, documentId: string) =>
      new Promise<{ snapshot: LiveDocumentSnapshot; blocks: number }>((resolve) => {
        const live = openLiveDocument({
          baseUrl: server.url,
          documentId,
          token: () => (actor === 'anonymous' ? null : tokens[actor]),
          WebSocket,
        });
        const check = () => {
          const snapshot = live.getSnapshot();
          if (!snapshot.synced && snapshot.error === null) return;
          stop();
          const blocks = live.document.getXmlFragment('content').length;
          live.destroy();
          resolve({ snapshot, blocks });
        };
        const stop = live.subscribe(check);
        check();
      });
    const owner = await outcome('owner', ids.document);
    expect(owner.snapshot.error).toBeNull();
    expect(owner.blocks).toBeGreaterThan(0);
    for (const actor of ['anonymous', 'other', 'member'] as const) {
      const refused = await outcome(actor, ids.document);
      expect(refused.snapshot.error, actor).toEqual({ code: 'refused', message: LIVE_REFUSED });
      expect(refused.snapshot.synced, actor).toBe(false);
      expect(refused.blocks, actor).toBe(0);
    }
    // The plan's members: editors change it, viewers and commenters follow it read-only (docs/teams.md).
    for (const [actor, readOnly] of [
      ['viewer', true],
      ['commenter', true],
      ['editor', false],
    ] as const) {
      const member = await outcome(actor, ids.document);
      expect(member.snapshot.error, actor).toBeNull();
      expect(member.snapshot.readOnly, actor).toBe(readOnly);
      expect(member.blocks, actor).toBeGreaterThan(0);
    }
    const missing = await outcome('owner', randomUUID());
    expect(missing.snapshot.error).toEqual({ code: 'refused', message: LIVE_REFUSED });
  });

  // Last: its deletions remove the owner's things.
  it('SEC-A2: each actor gets what the matrix says; others get exactly what a missing id gets', async () => {
    const failures: string[] = [];
    for (const entry of MATRIX) {
      const method = entry.route.split(' ')[0] ?? 'GET';
      for (const actor of ACTORS) {
        const want = entry.expect[actor] ?? entry.expect.other;
        const got = await send(method, actor, entry.call(ids, actor)).catch((error: unknown) => {
          throw new Error(`${entry.route} as ${actor}: ${String(error)}`, { cause: error });
        });
        const label = `${entry.route} as ${actor}: ${got.status} ${JSON.stringify(got.body).slice(0, 160)}`;
        if (got.status >= 500) failures.push(`${label} (5xx)`);
        else if (typeof want === 'number' && got.status !== want) failures.push(`${label} (want ${want})`);
        else if (want === 'ok' && (got.status < 200 || got.status > 299))
          failures.push(`${label} (want 2xx)`);
        else if (want === 'allowed' && [401, 403, 404].includes(got.status))
          failures.push(`${label} (want past the access check)`);
        else if (want === 'refused' && (got.status !== 404 || code(got) !== 'not_permitted'))
          failures.push(`${label} (want 404 not_permitted)`);
        else if (want === 'hidden') {
          const missing = await send(method, actor, entry.call(missingIds(), actor));
          if (got.status !== 404) failures.push(`${label} (want 404)`);
          else if (missing.status !== 404 || code(missing) !== code(got))
            failures.push(
              `${label} (a missing id answers ${missing.status} ${JSON.stringify(missing.body)})`,
            );
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
