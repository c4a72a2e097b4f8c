import { type Database, type DatabaseLocation, type Db, openDatabase } from '../db/database.js';
import type { DatabaseEvents } from '../db/database-events.js';
import { AccountKeyRepository } from './account-key-repository.js';
import { ActivityRepository } from './activity-repository.js';
import { AiUsageRepository } from './ai-usage-repository.js';
import { AppSettingRepository } from './app-setting-repository.js';
import { AuthenticatorRepository } from './authenticator-repository.js';
import { BlueprintRepository } from './blueprint-repository.js';
import { ChatRepository } from './chat-repository.js';
import { CommentRepository } from './comment-repository.js';
import { ContactMessageRepository } from './contact-message-repository.js';
import { DocumentMemberRepository } from './document-member-repository.js';
import { DocumentRepository } from './document-repository.js';
import { DocumentVersionRepository } from './document-version-repository.js';
import { EmailAddressRepository } from './email-address-repository.js';
import { InvitationRepository } from './invitation-repository.js';
import { LiveStateRepository } from './live-state-repository.js';
import { OidcStateRepository } from './oidc-state-repository.js';
import { OrganizationRepository } from './organization-repository.js';
import { RateLimitRepository } from './rate-limit-repository.js';
import { SessionRepository } from './session-repository.js';
import { ShareLinkRepository } from './share-link-repository.js';
import { SocialAccountRepository } from './social-account-repository.js';
import { UserRepository } from './user-repository.js';

/**
 * The server's storage: one repository per area over one PostgreSQL query layer (embedded PGlite or
 * a PostgreSQL server). Routes talk to repositories, never to SQL.
 */
export interface Storage {
  readonly kind: 'pglite' | 'postgres';
  readonly contactMessages: ContactMessageRepository;
  readonly users: UserRepository;
  readonly sessions: SessionRepository;
  readonly accountKeys: AccountKeyRepository;
  readonly authenticators: AuthenticatorRepository;
  readonly emailAddresses: EmailAddressRepository;
  readonly rateLimits: RateLimitRepository;
  readonly oidcStates: OidcStateRepository;
  readonly socialAccounts: SocialAccountRepository;
  readonly documents: DocumentRepository;
  readonly documentMembers: DocumentMemberRepository;
  readonly documentVersions: DocumentVersionRepository;
  readonly shareLinks: ShareLinkRepository;
  readonly invitations: InvitationRepository;
  readonly comments: CommentRepository;
  readonly blueprints: BlueprintRepository;
  readonly organizations: OrganizationRepository;
  readonly activities: ActivityRepository;
  readonly appSettings: AppSettingRepository;
  readonly chats: ChatRepository;
  readonly aiUsage: AiUsageRepository;
  readonly liveStates: LiveStateRepository;
  /** Cross-instance notifications (LISTEN/NOTIFY on PostgreSQL; this process only on PGlite). */
  readonly events: DatabaseEvents;
  /** Runs `work` in one transaction with repositories bound to it; rolls back if it throws. */
  transaction<T>(work: (tx: TransactionalStorage) => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The repositories available inside a transaction. */
export type TransactionalStorage = Pick<
  Storage,
  | 'contactMessages'
  | 'users'
  | 'sessions'
  | 'accountKeys'
  | 'authenticators'
  | 'emailAddresses'
  | 'rateLimits'
  | 'oidcStates'
  | 'socialAccounts'
  | 'documents'
  | 'documentMembers'
  | 'documentVersions'
  | 'shareLinks'
  | 'invitations'
  | 'comments'
  | 'blueprints'
  | 'organizations'
  | 'activities'
  | 'appSettings'
  | 'chats'
  | 'aiUsage'
  | 'liveStates'
>;

function repositories(db: Db): TransactionalStorage {
  return {
    contactMessages: new ContactMessageRepository(db),
    users: new UserRepository(db),
    sessions: new SessionRepository(db),
    accountKeys: new AccountKeyRepository(db),
    authenticators: new AuthenticatorRepository(db),
    emailAddresses: new EmailAddressRepository(db),
    rateLimits: new RateLimitRepository(db),
    oidcStates: new OidcStateRepository(db),
    socialAccounts: new SocialAccountRepository(db),
    documents: new DocumentRepository(db),
    documentMembers: new DocumentMemberRepository(db),
    documentVersions: new DocumentVersionRepository(db),
    shareLinks: new ShareLinkRepository(db),
    invitations: new InvitationRepository(db),
    comments: new CommentRepository(db),
    blueprints: new BlueprintRepository(db),
    organizations: new OrganizationRepository(db),
    activities: new ActivityRepository(db),
    appSettings: new AppSettingRepository(db),
    chats: new ChatRepository(db),
    aiUsage: new AiUsageRepository(db),
    liveStates: new LiveStateRepository(db),
  };
}

/** Wraps an open database in the storage interface. */
export function createStorage(database: Database): Storage {
  return {
    kind: database.kind,
    ...repositories(database.db),
    events: database.events,
    transaction: (work) => database.db.transaction((tx) => work(repositories(tx as unknown as Db))),
    ping: () => database.ping(),
    close: () => database.close(),
  };
}

/** Opens (and migrates) the database at `location` and returns its storage. */
export async function openStorage(location: DatabaseLocation): Promise<Storage> {
  return createStorage(await openDatabase(location));
}
