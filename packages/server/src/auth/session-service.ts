import type { SessionRecord } from '../storage/session-repository.js';
import type { Storage } from '../storage/storage.js';
import type { UserRecord } from '../storage/user-repository.js';
import { hashSecret, newSecret } from './secrets.js';

/** Which allauth client a request speaks for: the app sends X-Session-Token, the browser a cookie. */
export type AuthClient = 'app' | 'browser';

/** What a personal access token allows: `read` refuses every change (docs/auth.md "Personal access tokens"). */
export type TokenScope = 'read' | 'write';

/** A personal access token starts with this, so secret scanners and people recognise one. */
export const PERSONAL_TOKEN_PREFIX = 'pwt_';

/** allauth's ACCOUNT_REAUTHENTICATION_TIMEOUT: sensitive actions need a sign-in or reauthentication this recent. */
export const REAUTHENTICATION_TIMEOUT_MS = 5 * 60_000;

/** What a request says about its session. */
export interface SessionCredentials {
  client: AuthClient;
  /** The token from X-Session-Token (app) or the `sessionid` cookie (browser). */
  token: string | undefined;
  ip: string;
  userAgent: string;
}

/** A live session, with its user when it has one. */
export interface ResolvedSession {
  session: SessionRecord;
  user: UserRecord | undefined;
}

/** The outcome of looking a session up. `gone`: a token was sent but is unknown or expired. */
export type SessionLookup = { kind: 'none' } | { kind: 'gone' } | ({ kind: 'live' } & ResolvedSession);

/** A session just made, with the token to hand to the client (shown once, never stored). */
export interface IssuedSession extends ResolvedSession {
  token: string;
}

export interface SessionPolicy {
  idleTimeoutMs: number;
  maxAgeMs: number;
}

// Writing last_seen_at on every request would turn reads into writes; a minute's precision is plenty.
const TOUCH_INTERVAL_MS = 60_000;

/** Server-side sessions: lookup with idle and absolute timeouts, creation, rotation, ending. */
export class SessionService {
  constructor(
    private readonly storage: Storage,
    private readonly policy: SessionPolicy,
    private readonly now: () => Date,
  ) {}

  /**
   * Finds the session a request carries. On the allauth endpoints a token of the other client kind
   * is as good as unknown (an app token planted as a cookie must not work); `/api/v1/`, which reads
   * only the X-Session-Token header, passes `anyClient` and accepts both kinds.
   */
  async lookup(
    credentials: SessionCredentials,
    options: { anyClient?: boolean } = {},
  ): Promise<SessionLookup> {
    if (!credentials.token) return { kind: 'none' };
    const found = await this.storage.sessions.findWithUserByTokenHash(hashSecret(credentials.token));
    // A personal access token works on `/api/v1/` and the sockets, never on the allauth endpoints.
    if (!found || (!options.anyClient && found.session.client !== credentials.client))
      return { kind: 'gone' };
    const { session, user } = found;
    const now = this.now();
    const idleFor = now.getTime() - session.lastSeenAt.getTime();
    const age = now.getTime() - session.createdAt.getTime();
    const ended =
      session.client === 'token'
        ? session.expiresAt !== null && session.expiresAt.getTime() <= now.getTime()
        : idleFor > this.policy.idleTimeoutMs || age > this.policy.maxAgeMs;
    if (ended) {
      await this.storage.sessions.delete(session.id);
      return { kind: 'gone' };
    }
    let live = session;
    if (idleFor > TOUCH_INTERVAL_MS) {
      live = (await this.storage.sessions.update(session.id, { lastSeenAt: now })) ?? session;
    }
    return { kind: 'live', session: live, user };
  }

  /**
   * Starts a new session (a new token on every login and sign-up, so a token seen before
   * authentication is never the authenticated one), ending `previous` if given.
   */
  async issue(
    credentials: SessionCredentials,
    state: {
      user: UserRecord | undefined;
      authenticated: boolean;
      pendingFlow?: 'verify_email' | 'mfa_authenticate';
      method?: 'password' | 'socialaccount';
      provider?: string;
    },
    previous?: SessionRecord,
  ): Promise<IssuedSession> {
    const token = newSecret();
    const now = this.now();
    if (previous) await this.storage.sessions.delete(previous.id);
    const session = await this.storage.sessions.create({
      tokenHash: hashSecret(token),
      client: credentials.client,
      userId: state.user?.id ?? null,
      authenticated: state.authenticated,
      pendingFlow: state.pendingFlow ?? null,
      method: state.method ?? null,
      methodAt: state.method ? now : null,
      provider: state.provider ?? null,
      createdAt: now,
      lastSeenAt: now,
      userAgent: credentials.userAgent.slice(0, 512),
      ip: credentials.ip,
    });
    return { token, session, user: state.user };
  }

  /**
   * Makes a personal access token for `user` (docs/auth.md "Personal access tokens"): a session of the kind
   * `token`, with a name, a scope and an expiry, and no idle timeout. The token is answered once.
   */
  async issueToken(
    user: UserRecord,
    input: { name: string; scope: TokenScope; lifetimeDays: number },
    credentials: Pick<SessionCredentials, 'ip' | 'userAgent'>,
  ): Promise<IssuedSession> {
    const token = `${PERSONAL_TOKEN_PREFIX}${newSecret()}`;
    const now = this.now();
    const session = await this.storage.sessions.create({
      tokenHash: hashSecret(token),
      client: 'token',
      userId: user.id,
      authenticated: true,
      createdAt: now,
      lastSeenAt: now,
      userAgent: credentials.userAgent.slice(0, 512),
      ip: credentials.ip,
      name: input.name,
      scope: input.scope,
      // From the same instant as `createdAt`: a token lasts its days exactly.
      expiresAt: new Date(now.getTime() + input.lifetimeDays * 24 * 60 * 60 * 1000),
      tokenHint: token.slice(0, PERSONAL_TOKEN_PREFIX.length + 4),
    });
    return { token, session, user };
  }

  /** Whether the session signed in or reauthenticated recently enough for a sensitive action. */
  recentlyAuthenticated(session: SessionRecord): boolean {
    const at = session.methodAt ?? session.createdAt;
    return this.now().getTime() - at.getTime() <= REAUTHENTICATION_TIMEOUT_MS;
  }

  async end(session: SessionRecord): Promise<void> {
    await this.storage.sessions.delete(session.id);
  }
}
