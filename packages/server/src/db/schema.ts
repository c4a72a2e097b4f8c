import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** Messages sent through the public contact form. */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull().default(''),
    message: text('message').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** When the message was handed to the mailer; null while unsent or when sending failed. */
    emailedAt: timestamp('emailed_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [index('contact_messages_created_at_idx').on(table.createdAt)],
);

/** People with an account. The e-mail is stored as typed and matched case-insensitively. */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    /** `lower(email)`: the unique key that sign-in and sign-up look addresses up by. */
    emailKey: text('email_key').notNull(),
    emailVerified: boolean('email_verified').notNull().default(false),
    /** Null for accounts made through a provider that never set a password. */
    passwordHash: text('password_hash'),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    language: text('language'),
    timezone: text('timezone'),
    avatarUrl: text('avatar_url'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [uniqueIndex('users_email_key_idx').on(table.emailKey)],
);

/**
 * An account's addresses besides its primary one (allauth's `account/email`). The primary address, the one the
 * account signs in with, stays `users.email` / `users.email_verified`; making another address primary swaps the
 * two. Several accounts may list one address (unverified, or verified before); only one can sign in with it.
 */
export const emailAddresses = pgTable(
  'email_addresses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    /** `lower(email)`: addresses match case-insensitively. */
    emailKey: text('email_key').notNull(),
    verified: boolean('verified').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [
    uniqueIndex('email_addresses_user_email_key_idx').on(table.userId, table.emailKey),
    index('email_addresses_email_key_idx').on(table.emailKey),
  ],
);

/**
 * Server-side sessions for both allauth clients: the app client sends the token as X-Session-Token,
 * the browser client as the `sessionid` cookie. Only a SHA-256 hash of the token is stored.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The number allauth's session list calls its `id` (an integer there). */
    number: bigserial('number', { mode: 'number' }).notNull(),
    tokenHash: text('token_hash').notNull(),
    /** `token`: a personal access token for scripts (docs/auth.md), valid on `/api/v1/` and the sockets only. */
    client: text('client', { enum: ['app', 'browser', 'token'] }).notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** False while a flow (e-mail verification) is pending for `userId`. */
    authenticated: boolean('authenticated').notNull().default(false),
    /** `mfa_authenticate`: the password was right; the second factor is asked next. */
    pendingFlow: text('pending_flow', { enum: ['verify_email', 'mfa_authenticate'] }),
    /** How the session was authenticated: `password` or `socialaccount`, with when. */
    method: text('method', { enum: ['password', 'socialaccount'] }),
    methodAt: timestamp('method_at', { withTimezone: true, mode: 'date' }),
    provider: text('provider'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull(),
    userAgent: text('user_agent').notNull().default(''),
    ip: text('ip').notNull().default(''),
    /** A personal access token's name ("nightly export"); null for a sign-in. */
    name: text('name'),
    /** A personal access token's scope: `read` refuses every change; null (a sign-in) or `write` allow them. */
    scope: text('scope', { enum: ['read', 'write'] }),
    /** When a personal access token stops working; sign-ins end by the idle and absolute timeouts instead. */
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    /** A personal access token's first characters, to tell tokens apart in a list. */
    tokenHint: text('token_hint'),
  },
  (table) => [
    uniqueIndex('sessions_token_hash_idx').on(table.tokenHash),
    uniqueIndex('sessions_number_idx').on(table.number),
    index('sessions_user_id_idx').on(table.userId),
  ],
);

/**
 * An account's second factors (docs/auth.md "Two-factor authentication"): its TOTP authenticator (RFC 6238, the
 * secret in `data.secret`; `activated_at` null while being set up) and its recovery codes (`data.hashes`, SHA-256
 * of each, and `data.used`, the indexes spent). At most one of each per account.
 */
export const authenticators = pgTable(
  'authenticators',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The number allauth's answers call the authenticator's `id`. */
    number: bigserial('number', { mode: 'number' }).notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['totp', 'recovery_codes'] }).notNull(),
    data: jsonb('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    activatedAt: timestamp('activated_at', { withTimezone: true, mode: 'date' }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    /** TOTP: the last time step accepted, so no code is accepted twice. */
    lastStep: bigint('last_step', { mode: 'number' }),
  },
  (table) => [uniqueIndex('authenticators_user_type_idx').on(table.userId, table.type)],
);

/** Single-use keys sent by e-mail (verification, change of address, password reset); only their hash is stored. */
export const accountKeys = pgTable(
  'account_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    keyHash: text('key_hash').notNull(),
    /** `change_email`: confirms a new address the profile asked for; opening it makes it the account's address. */
    purpose: text('purpose', { enum: ['verify_email', 'change_email', 'password_reset'] }).notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The address the key was sent to: verifying it verifies this address only. */
    email: text('email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    uniqueIndex('account_keys_key_hash_idx').on(table.keyHash),
    index('account_keys_user_id_idx').on(table.userId),
  ],
);

/** One row per counted attempt; rate limits count rows in a sliding window (shared by every instance). */
export const rateLimitEvents = pgTable(
  'rate_limit_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bucket: text('bucket').notNull(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [index('rate_limit_events_bucket_at_idx').on(table.bucket, table.at)],
);

/**
 * A sign-in with an OpenID Connect provider that has been started and not yet finished: its PKCE
 * verifier and nonce wait here (never in memory, so any instance can finish it). Looked up by the
 * hash of `state`, deleted when used, and good for ten minutes.
 */
export const oidcStates = pgTable(
  'oidc_states',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    provider: text('provider').notNull(),
    stateHash: text('state_hash').notNull(),
    /** Hash of the browser's flow cookie: only the browser that started the sign-in may finish it. */
    browserHash: text('browser_hash').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    nonce: text('nonce').notNull(),
    /** Where the browser goes after signing in (an absolute URL under PUBLIC_URL, already checked). */
    redirectTo: text('redirect_to').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [
    uniqueIndex('oidc_states_state_hash_idx').on(table.stateHash),
    index('oidc_states_expires_at_idx').on(table.expiresAt),
  ],
);

/** An account at an identity provider (Google), linked to one of our users by the provider's subject. */
export const socialAccounts = pgTable(
  'social_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    provider: text('provider').notNull(),
    /** The provider's stable user id (`sub`); e-mail addresses change, this does not. */
    subject: text('subject').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The verified address the provider reported when the account was linked. */
    email: text('email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    uniqueIndex('social_accounts_provider_subject_idx').on(table.provider, table.subject),
    index('social_accounts_user_id_idx').on(table.userId),
  ],
);

/** A group of users (a university, a venture studio, a team); blueprints can be restricted to them. */
export const organizations = pgTable(
  'organizations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    /** URL-safe and unique; made from the name. */
    slug: text('slug').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [uniqueIndex('organizations_slug_idx').on(table.slug)],
);

/** The roles an organisation's members have: admins manage it, members belong. */
export const ORGANIZATION_ROLES = ['admin', 'member'] as const;

/** Who belongs to which organisation, and whether they may manage its members. */
export const organizationMembers = pgTable(
  'organization_members',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ORGANIZATION_ROLES }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.organizationId, table.userId] }),
    index('organization_members_user_id_idx').on(table.userId),
  ],
);

/**
 * Reusable templates of sections and subsections. `content` (the rich-text tree) is the source of
 * truth for structure; `blueprint_sections` and `blueprint_subsections` are rebuilt from it on every
 * write and hold the per-section AI settings. A null owner is the seeded default.
 */
export const blueprints = pgTable(
  'blueprints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    status: text('status', { enum: ['draft', 'published'] })
      .notNull()
      .default('draft'),
    version: integer('version').notNull().default(1),
    visibility: text('visibility', { enum: ['public', 'restricted', 'private', 'unlisted'] })
      .notNull()
      .default('private'),
    publishedAt: timestamp('published_at', { withTimezone: true, mode: 'date' }),
    systemPrompt: text('system_prompt').notNull().default(''),
    /** The label shown as the publisher; null shows the owner's name (or the studio default). */
    publisher: text('publisher'),
    /** The seeded "Business Plan": preferred when creating a document, never deletable. */
    isDefault: boolean('is_default').notNull().default(false),
    content: jsonb('content').notNull(),
    revision: integer('revision').notNull().default(1),
    /** As `documents.live_revision`: blueprints are co-edited the same way (issue 21 item 7). */
    liveRevision: integer('live_revision'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [
    index('blueprints_owner_id_idx').on(table.ownerId),
    index('blueprints_listing_idx').on(table.status, table.visibility),
    // At most one default, so concurrent first starts seed it once (insert … on conflict do nothing).
    uniqueIndex('blueprints_default_idx').on(table.isDefault).where(sql`${table.isDefault}`),
  ],
);

/** The organisations a `restricted` blueprint is shared with. */
export const blueprintAllowedOrgs = pgTable(
  'blueprint_allowed_orgs',
  {
    blueprintId: uuid('blueprint_id')
      .notNull()
      .references(() => blueprints.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
  },
  (table) => [
    primaryKey({ columns: [table.blueprintId, table.organizationId] }),
    index('blueprint_allowed_orgs_organization_id_idx').on(table.organizationId),
  ],
);

/** A plan, made from a blueprint. `content` is the source of truth, as for blueprints. */
export const documents = pgTable(
  'documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Null once the blueprint is deleted: the document keeps its copied structure. */
    blueprintId: uuid('blueprint_id').references(() => blueprints.id, { onDelete: 'set null' }),
    /** The blueprint's version when the document was made from it (null for documents made before 0004). */
    blueprintVersion: integer('blueprint_version'),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    content: jsonb('content').notNull(),
    revision: integer('revision').notNull().default(1),
    /** Progress, kept with every content write so lists need not read the content. */
    finalizedCount: integer('finalized_count').notNull().default(0),
    subsectionCount: integer('subsection_count').notNull().default(0),
    /**
     * The revision whose content was derived from the live (Yjs) state; null when the document has never
     * been live. A revision past it was written over REST while no live copy was loaded, so loading one
     * applies that content to the live state first (src/live/SPEC.md).
     */
    liveRevision: integer('live_revision'),
    /** Whether editors may invite people too (docs/teams.md); only the owner changes it. */
    editorsCanShare: boolean('editors_can_share').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [index('documents_owner_updated_idx').on(table.ownerId, table.updatedAt)],
);

/** The roles a plan gives people besides its owner (docs/teams.md), strongest first. */
export const SHARED_PLAN_ROLES = ['editor', 'commenter', 'viewer'] as const;

/** Why a version of a document was kept: named by someone, or automatically before a big change or hourly. */
export const DOCUMENT_VERSION_KINDS = ['named', 'hourly', 'before_import', 'before_restore'] as const;

/**
 * Versions of a document (docs/versions.md): its content, title and progress as they were, copied whole (the
 * live state is garbage-collected, so a Yjs snapshot could not be read back). Named versions are kept for ever,
 * automatic ones for `VERSION_RETENTION_DAYS`. A name is unique in its document, case aside.
 */
export const documentVersions = pgTable(
  'document_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    /** What people called it; null for an automatic version. */
    name: text('name'),
    kind: text('kind', { enum: DOCUMENT_VERSION_KINDS }).notNull(),
    title: text('title').notNull(),
    content: jsonb('content').notNull(),
    /** The document's revision it copies. */
    revision: integer('revision').notNull(),
    finalizedCount: integer('finalized_count').notNull(),
    subsectionCount: integer('subsection_count').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [
    index('document_versions_document_created_idx').on(table.documentId, table.createdAt),
    uniqueIndex('document_versions_name_idx')
      .on(table.documentId, sql`lower(${table.name})`)
      .where(sql`${table.name} is not null`),
  ],
);

/**
 * Read-only links to a document for people without an account (docs/versions.md "Share links"): to one of its
 * versions, or to its latest finalized subsections when `version_id` is null. The token is stored only as its
 * SHA-256 hash; a link stops at `expires_at` or `revoked_at`, and is kept after either so its views stay.
 */
export const shareLinks = pgTable(
  'share_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    /** The version shown; null for the document's latest finalized subsections. Kept while a link names it. */
    versionId: uuid('version_id').references(() => documentVersions.id, { onDelete: 'cascade' }),
    /** Who the owner made it for ("Acme Ventures"): each reader their own link, each link its own views. */
    label: text('label').notNull().default(''),
    tokenHash: text('token_hash').notNull(),
    /** The token's first characters, so a list can tell links apart without holding them. */
    tokenHint: text('token_hint').notNull(),
    /** The password's hash, as accounts' (scrypt); null when the link has none. */
    passwordHash: text('password_hash'),
    allowDownload: boolean('allow_download').notNull().default(false),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [
    uniqueIndex('share_links_token_idx').on(table.tokenHash),
    index('share_links_document_idx').on(table.documentId, table.createdAt),
    index('share_links_version_idx').on(table.versionId),
  ],
);

/**
 * One reading of a share link: a page load by a reader who did not ask not to be tracked. `visitor_hash` is the
 * hash of the reader's first-party cookie, so unique visitors are counted without knowing who they are.
 */
export const shareLinkViews = pgTable(
  'share_link_views',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    linkId: uuid('link_id')
      .notNull()
      .references(() => shareLinks.id, { onDelete: 'cascade' }),
    visitorHash: text('visitor_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [index('share_link_views_link_idx').on(table.linkId, table.createdAt)],
);

/** How long a view spent on each section of the plan, as the reader page reports it. */
export const shareLinkSectionReads = pgTable(
  'share_link_section_reads',
  {
    viewId: uuid('view_id')
      .notNull()
      .references(() => shareLinkViews.id, { onDelete: 'cascade' }),
    sectionUuid: uuid('section_uuid').notNull(),
    milliseconds: integer('milliseconds').notNull(),
  },
  (table) => [primaryKey({ columns: [table.viewId, table.sectionUuid] })],
);

/** The people a document is shared with, and their role on it (its owner is `documents.owner_id`). */
export const documentMembers = pgTable(
  'document_members',
  {
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: SHARED_PLAN_ROLES }).notNull(),
    addedBy: uuid('added_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.documentId, table.userId] }),
    index('document_members_user_id_idx').on(table.userId),
  ],
);

/** The organisations a document is shared with: every member of one gets its role. */
export const documentOrganizationGrants = pgTable(
  'document_organization_grants',
  {
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    role: text('role', { enum: SHARED_PLAN_ROLES }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.documentId, table.organizationId] }),
    index('document_organization_grants_organization_id_idx').on(table.organizationId),
  ],
);

/**
 * Invitations by e-mail to a document or to an organisation (exactly one). The link's token is stored only as
 * its SHA-256 hash; an invitation is pending until accepted, revoked or past `expires_at`, and an address has at
 * most one pending per document or organisation.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    documentId: uuid('document_id').references(() => documents.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    /** `lower(email)`, as `users.email_key`. */
    emailKey: text('email_key').notNull(),
    /** A plan role for a document, an organisation role for an organisation. */
    role: text('role', { enum: [...SHARED_PLAN_ROLES, ...ORGANIZATION_ROLES] }).notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** When the e-mail was last sent (a resend moves it and the expiry). */
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true, mode: 'date' }),
    acceptedBy: uuid('accepted_by').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    uniqueIndex('invitations_token_idx').on(table.tokenHash),
    uniqueIndex('invitations_pending_document_idx')
      .on(table.documentId, table.emailKey)
      .where(
        sql`${table.acceptedAt} is null and ${table.revokedAt} is null and ${table.documentId} is not null`,
      ),
    uniqueIndex('invitations_pending_organization_idx')
      .on(table.organizationId, table.emailKey)
      .where(
        sql`${table.acceptedAt} is null and ${table.revokedAt} is null and ${table.organizationId} is not null`,
      ),
    index('invitations_email_key_idx').on(table.emailKey),
    check('invitations_one_target', sql`num_nonnulls(${table.documentId}, ${table.organizationId}) = 1`),
  ],
);

/**
 * The columns a section row has under either parent. Keyed by (parent, uuid): the uuid comes from the
 * content tree, which a client may have copied from another document.
 */
function sectionColumns() {
  return {
    uuid: uuid('uuid').notNull(),
    /** The blueprint section (or subsection) this one was made from, if any. */
    blueprintUuid: uuid('blueprint_uuid'),
    title: text('title').notNull().default(''),
    /** 1-based, as in the tree. */
    position: integer('position').notNull(),
    developerPrompt: text('developer_prompt').notNull().default(''),
    userHint: text('user_hint').notNull().default(''),
    toolMode: text('tool_mode', { enum: ['', 'web', 'research', 'fact_check', 'mcp'] })
      .notNull()
      .default(''),
    mcpUrl: text('mcp_url').notNull().default(''),
  };
}

export const blueprintSections = pgTable(
  'blueprint_sections',
  {
    blueprintId: uuid('blueprint_id')
      .notNull()
      .references(() => blueprints.id, { onDelete: 'cascade' }),
    ...sectionColumns(),
  },
  (table) => [primaryKey({ columns: [table.blueprintId, table.uuid] })],
);

export const blueprintSubsections = pgTable(
  'blueprint_subsections',
  {
    blueprintId: uuid('blueprint_id')
      .notNull()
      .references(() => blueprints.id, { onDelete: 'cascade' }),
    sectionUuid: uuid('section_uuid').notNull(),
    ...sectionColumns(),
  },
  (table) => [primaryKey({ columns: [table.blueprintId, table.uuid] })],
);

export const documentSections = pgTable(
  'document_sections',
  {
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    ...sectionColumns(),
  },
  (table) => [primaryKey({ columns: [table.documentId, table.uuid] })],
);

export const documentSubsections = pgTable(
  'document_subsections',
  {
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    sectionUuid: uuid('section_uuid').notNull(),
    ...sectionColumns(),
    finalized: boolean('finalized').notNull().default(false),
  },
  (table) => [primaryKey({ columns: [table.documentId, table.uuid] })],
);

/**
 * What happened to a document or blueprint, for its owner's activity feeds (spec 000 §3). Labels are
 * copied at the time of the event, so an entry still reads right after its target is renamed or deleted.
 */
export const activities = pgTable(
  'activities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Whose feed the entry is in. */
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorLabel: text('actor_label').notNull(),
    verb: text('verb').notNull(),
    message: text('message').notNull(),
    target: text('target', { enum: ['document', 'blueprint'] }).notNull(),
    objectId: uuid('object_id').notNull(),
    targetLabel: text('target_label').notNull(),
    childTargetLabel: text('child_target_label'),
    childContentTypeLabel: text('child_content_type_label'),
    severity: text('severity', { enum: ['info', 'warning', 'error', 'system'] })
      .notNull()
      .default('info'),
    /** 1 for whole-resource events (create, rename, delete, finalize, import, export), 2 for section-level ones. */
    level: integer('level').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [
    index('activities_owner_created_idx').on(table.ownerId, table.createdAt),
    index('activities_object_idx').on(table.ownerId, table.target, table.objectId),
    // A member's feed reads the entries of the plans shared with them, whoever owns the feed they are in.
    index('activities_object_created_idx').on(table.objectId, table.createdAt),
  ],
);

/** Server-wide settings managed by administrators (the global system prompt), shared by every instance. */
export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/**
 * A conversation with the AI about a document, one of its sections or one of its subsections. `objectId`
 * is the document's id or the section's or subsection's uuid (unique within its document only).
 */
export const chats = pgTable(
  'chats',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    target: text('target', { enum: ['document', 'section', 'subsection'] }).notNull(),
    objectId: uuid('object_id').notNull(),
    /** The section a subsection chat's subsection was in when the chat started (its socket path names it). */
    sectionUuid: uuid('section_uuid'),
    title: text('title').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [
    index('chats_scope_idx').on(
      table.ownerId,
      table.documentId,
      table.target,
      table.objectId,
      table.updatedAt,
    ),
    index('chats_object_idx').on(table.ownerId, table.target, table.objectId),
  ],
);

/** One message of a chat, in the order it was written (`position`, shared by every instance). */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    chatId: uuid('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    position: bigserial('position', { mode: 'number' }).notNull(),
    role: text('role', { enum: ['user', 'ai', 'system'] }).notNull(),
    content: text('content').notNull(),
    /** The sender's id for a user message: a resend with the same id is the same message. */
    clientId: text('client_id'),
    /** The proposal tool calls an AI message made (as the model sent them, for the next turn's context). */
    toolCalls: jsonb('tool_calls').notNull().default(sql`'[]'::jsonb`),
    /** Provider, options, interrupted: what the transcript shows beside the text. */
    metadata: jsonb('metadata').notNull().default(sql`'{}'::jsonb`),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [
    index('chat_messages_chat_position_idx').on(table.chatId, table.position),
    uniqueIndex('chat_messages_client_id_idx').on(table.chatId, table.clientId),
  ],
);

/** An edit the AI proposed in a chat, waiting for the user's decision or decided. */
export const chatProposals = pgTable(
  'chat_proposals',
  {
    /** The id the client sees (`tool_id`); the model's own call id is kept apart. */
    toolId: text('tool_id').primaryKey(),
    chatId: uuid('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    messageId: uuid('message_id')
      .notNull()
      .references(() => chatMessages.id, { onDelete: 'cascade' }),
    providerToolCallId: text('provider_tool_call_id').notNull(),
    toolName: text('tool_name', { enum: ['propose_full_subsection', 'propose_partial_edits'] }).notNull(),
    payload: jsonb('payload').notNull(),
    status: text('status', { enum: ['pending', 'accepted', 'rejected'] })
      .notNull()
      .default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [index('chat_proposals_chat_idx').on(table.chatId, table.createdAt)],
);

/** Tokens one AI call used, per user and per document (null for a transform outside a document). */
export const aiUsage = pgTable(
  'ai_usage',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    documentId: uuid('document_id').references(() => documents.id, { onDelete: 'set null' }),
    kind: text('kind', { enum: ['chat', 'transform'] }).notNull(),
    provider: text('provider').notNull(),
    model: text('model').notNull(),
    inputTokens: integer('input_tokens'),
    outputTokens: integer('output_tokens'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [
    index('ai_usage_user_created_idx').on(table.userId, table.createdAt),
    index('ai_usage_document_idx').on(table.documentId),
  ],
);

/** Bytes as PostgreSQL `bytea`: node-postgres gives a Buffer, PGlite a Uint8Array; both are Uint8Arrays. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
});

/**
 * The plan a live-state row belongs to: a document or a blueprint (design.md §5: both are co-edited),
 * exactly one of the two, each deleted with its plan.
 */
function livePlanColumns() {
  return {
    documentId: uuid('document_id').references(() => documents.id, { onDelete: 'cascade' }),
    blueprintId: uuid('blueprint_id').references(() => blueprints.id, { onDelete: 'cascade' }),
  };
}

/**
 * The update log of live plans: each Yjs update as it arrived, appended (one row per update) so a
 * keystroke costs its bytes, not the plan. Compaction folds rows into `live_snapshots` and deletes exactly
 * the rows it folded. `seq` orders rows for reading; Yjs updates commute, so commit order does not matter.
 */
export const liveUpdates = pgTable(
  'live_updates',
  {
    seq: bigserial('seq', { mode: 'bigint' }).primaryKey(),
    ...livePlanColumns(),
    update: bytea('update').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [
    index('live_updates_document_idx').on(table.documentId, table.seq),
    index('live_updates_blueprint_idx').on(table.blueprintId, table.seq),
    check('live_updates_one_plan', sql`num_nonnulls(${table.documentId}, ${table.blueprintId}) = 1`),
  ],
);

/** A live plan's compacted Yjs state (`Y.encodeStateAsUpdate`): the log's rows folded so far. */
export const liveSnapshots = pgTable(
  'live_snapshots',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ...livePlanColumns(),
    state: bytea('state').notNull(),
    /** How many log rows it has folded in all (a figure for compaction reports). */
    foldedUpdates: bigint('folded_updates', { mode: 'number' }).notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [
    uniqueIndex('live_snapshots_document_idx').on(table.documentId),
    uniqueIndex('live_snapshots_blueprint_idx').on(table.blueprintId),
    check('live_snapshots_one_plan', sql`num_nonnulls(${table.documentId}, ${table.blueprintId}) = 1`),
  ],
);

/**
 * Comment threads on a document (docs/teams.md "Comments"): where (the subsection, and an anchor the editor
 * made: two Yjs relative positions, opaque here, that follow the text through everyone's edits) and on what
 * text (`quote`, as it read then). Open until resolved.
 */
export const commentThreads = pgTable(
  'comment_threads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    subsectionUuid: uuid('subsection_uuid'),
    anchor: bytea('anchor'),
    quote: text('quote').notNull().default(''),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true, mode: 'date' }),
    resolvedBy: uuid('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    /** The order threads were started in. */
    seq: bigserial('seq', { mode: 'bigint' }).notNull(),
  },
  (table) => [index('comment_threads_document_idx').on(table.documentId, table.seq)],
);

/** The messages of a comment thread, in order; a deleted one keeps its place without its text. */
export const commentMessages = pgTable(
  'comment_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    threadId: uuid('thread_id')
      .notNull()
      .references(() => commentThreads.id, { onDelete: 'cascade' }),
    /** The order messages were written in (two in one millisecond keep theirs). */
    seq: bigserial('seq', { mode: 'bigint' }).notNull(),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    editedAt: timestamp('edited_at', { withTimezone: true, mode: 'date' }),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [index('comment_messages_thread_idx').on(table.threadId, table.seq)],
);

/**
 * Mentions waiting to be e-mailed: at most one e-mail per person per plan per 10 minutes, holding every
 * mention since the last (a digest). `sent_at` is set when an e-mail took it.
 */
export const mentionNotices = pgTable(
  'mention_notices',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    messageId: uuid('message_id')
      .notNull()
      .references(() => commentMessages.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [index('mention_notices_recipient_idx').on(table.userId, table.documentId, table.sentAt)],
);
