import type { SessionRecord } from '../storage/session-repository.js';
import type { Storage } from '../storage/storage.js';
import type { UserRecord } from '../storage/user-repository.js';
import { hashSecret, newSecret } from './secrets.js';

/** Which allauth client a request speaks for: the app sends X-Session-Token, the browser a cookie. */
export type AuthClient = 'app' | 'browser';

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
    if (!found || (!options.anyClient && found.session.client !== credentials.client))
      return { kind: 'gone' };
    const { session, user } = found;
    const now = this.now();
    const idleFor = now.getTime() - session.lastSeenAt.getTime();
    const age = now.getTime() - session.createdAt.getTime();
    if (idleFor > this.policy.idleTimeoutMs || age > this.policy.maxAgeMs) {
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
      pendingFlow?: 'verify_email';
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

  async end(session: SessionRecord): Promise<void> {
    await this.storage.sessions.delete(session.id);
  }
}
