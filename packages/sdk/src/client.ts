import { type AuthClient, type AuthClientKind, createAuthClient } from './auth/auth-client.js';
import { MemoryTokenStore } from './auth/memory-token-store.js';
import type { TokenStore } from './auth/token-store.js';
import type { ChatSession } from './chat/chat-session.js';
import type { ChatScope } from './chat/chat-url.js';
import { createHttpClient, type HttpClient, type HttpClientOptions } from './http/http-client.js';
import { type ActivitiesResource, createActivitiesResource } from './resources/activities.js';
import { type AiResource, createAiResource } from './resources/ai.js';
import { type BlueprintsResource, createBlueprintsResource } from './resources/blueprints.js';
import {
  type ChatSessionExtras,
  type ChatsResource,
  chatSessionFor,
  createChatsResource,
} from './resources/chats.js';
import { type CommentsResource, createCommentsResource } from './resources/comments.js';
import { type ContactResource, createContactResource } from './resources/contact.js';
import { type ConversionResource, createConversionResource } from './resources/conversion.js';
import { createDocumentsResource, type DocumentsResource } from './resources/documents.js';
import { createInvitationsResource, type InvitationsResource } from './resources/invitations.js';
import { createMembersResource, type MembersResource } from './resources/members.js';
import { createOrganizationsResource, type OrganizationsResource } from './resources/organizations.js';
import { createShareLinksResource, type ShareLinksResource } from './resources/share-links.js';
import { createSiteResource, type SiteResource } from './resources/site.js';
import { createSystemPromptResource, type SystemPromptResource } from './resources/system-prompt.js';
import { createVersionsResource, type VersionsResource } from './resources/versions.js';

/** Options for {@link createPlanwrightClient}: those of the request helper, plus the auth client's. */
export interface PlanwrightClientOptions extends HttpClientOptions {
  /** Which allauth client `auth` speaks: `app` (default; CLI, scripts) or `browser` (the web app). */
  authClient?: AuthClientKind;
  /** The browser client's CSRF token source; defaults to the `csrftoken` cookie of `document.cookie`. */
  getCsrfToken?: () => string | null | undefined;
  /** Milliseconds since the epoch, for token expiry; defaults to `Date.now`, looked up at each call. */
  now?: () => number;
}

/** Everything the SDK talks to the server with, sharing one request helper and one token store. */
export interface PlanwrightClient {
  /** The request helper, for calls no resource module covers yet. */
  readonly http: HttpClient;
  /** Where the session token lives; subscribe to it to follow sign-in and sign-out. */
  readonly tokenStore: TokenStore;
  /** Sign-in, sign-up, verification, password reset, sign-out and the current user. */
  readonly auth: AuthClient;
  /** The contact form's call. */
  readonly contact: ContactResource;
  /** Site-wide calls: health and the pricing table's settings. */
  readonly site: SiteResource;
  /** The caller's documents, with their sections and subsections. */
  readonly documents: DocumentsResource;
  /** The caller's blueprints and the ones available to make documents from, with their sections. */
  readonly blueprints: BlueprintsResource;
  /** The activity feed of the caller's documents and blueprints. */
  readonly activities: ActivitiesResource;
  /** The caller's organisations and their members. */
  readonly organizations: OrganizationsResource;
  /** Who a document is shared with: members, roles, invitations and organisations (docs/teams.md). */
  readonly members: MembersResource;
  /** Invitations to plans addressed to the caller, and accepting them. */
  readonly invitations: InvitationsResource;
  /** Comment threads on a plan, with mentions (docs/teams.md "Comments"). */
  readonly comments: CommentsResource;
  /** A document's versions: named and automatic, read and restored (docs/versions.md). */
  readonly versions: VersionsResource;
  /** A document's read-only links for people without an account, and what their readers did (docs/versions.md). */
  readonly shareLinks: ShareLinksResource;
  /** The global system prompt (read-only). */
  readonly systemPrompt: SystemPromptResource;
  /** The token-based conversion service: a content tree to .docx, PDF, HTML or JSON. */
  readonly conversion: ConversionResource;
  /** The recent chats about a document, section or subsection, and new ones. */
  readonly chats: ChatsResource;
  /** The AI provider, usage, text and subsection transforms, and the prompt a chat would send. */
  readonly ai: AiResource;
  /**
   * A realtime chat session on this client's server, signed in with its token store's token (read at
   * each connect). Call `connect()` on it to open the socket.
   */
  chatSession(scope: ChatScope, options?: ChatSessionExtras): ChatSession;
}

/**
 * Creates a client. Without a `tokenStore` the session lives in memory; browsers pass a
 * `BrowserStorageTokenStore` (and `authClient: 'browser'`), the CLI its file store.
 *
 * @example
 * const client = createPlanwrightClient({ baseUrl: 'http://localhost:8000' });
 * const { version } = await client.site.health();
 */
export function createPlanwrightClient(options: PlanwrightClientOptions = {}): PlanwrightClient {
  const { authClient, getCsrfToken, now, ...httpOptions } = options;
  const tokenStore = options.tokenStore ?? new MemoryTokenStore();
  const http = createHttpClient({ ...httpOptions, tokenStore });
  return {
    http,
    tokenStore,
    auth: createAuthClient({ http, tokenStore, client: authClient, getCsrfToken }),
    contact: createContactResource(http),
    site: createSiteResource(http),
    documents: createDocumentsResource(http),
    blueprints: createBlueprintsResource(http),
    activities: createActivitiesResource(http),
    organizations: createOrganizationsResource(http),
    members: createMembersResource(http),
    invitations: createInvitationsResource(http),
    comments: createCommentsResource(http),
    versions: createVersionsResource(http),
    shareLinks: createShareLinksResource(http),
    systemPrompt: createSystemPromptResource(http),
    conversion: createConversionResource(http, { tokenStore, now }),
    chats: createChatsResource(http),
    ai: createAiResource(http),
    chatSession: (scope, chatOptions) =>
      chatSessionFor(http, () => tokenStore.getToken(), scope, chatOptions),
  };
}
