import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

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
 * Server-side sessions for both allauth clients: the app client sends the token as X-Session-Token,
 * the browser client as the `sessionid` cookie. Only a SHA-256 hash of the token is stored.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull(),
    client: text('client', { enum: ['app', 'browser'] }).notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** False while a flow (e-mail verification) is pending for `userId`. */
    authenticated: boolean('authenticated').notNull().default(false),
    pendingFlow: text('pending_flow', { enum: ['verify_email'] }),
    /** How the session was authenticated: `password` or `socialaccount`, with when. */
    method: text('method', { enum: ['password', 'socialaccount'] }),
    methodAt: timestamp('method_at', { withTimezone: true, mode: 'date' }),
    provider: text('provider'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull(),
    userAgent: text('user_agent').notNull().default(''),
    ip: text('ip').notNull().default(''),
  },
  (table) => [
    uniqueIndex('sessions_token_hash_idx').on(table.tokenHash),
    index('sessions_user_id_idx').on(table.userId),
  ],
);

/** Single-use keys sent by e-mail (verification and password reset); only their hash is stored. */
export const accountKeys = pgTable(
  'account_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    keyHash: text('key_hash').notNull(),
    purpose: text('purpose', { enum: ['verify_email', 'password_reset'] }).notNull(),
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
