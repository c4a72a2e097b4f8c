import { timingSafeEqual } from 'node:crypto';
import * as client from 'openid-client';
import type { OidcProviderConfig } from '../../config/config.js';
import type { RateLimit } from '../../storage/rate-limit-repository.js';
import type { Storage, TransactionalStorage } from '../../storage/storage.js';
import type { UserRecord } from '../../storage/user-repository.js';
import { hashSecret } from '../secrets.js';
import type { AuthorizationChecks, OidcClient, OidcLogger } from './oidc-client.js';
import { identityFromClaims, type ProviderIdentity } from './provider-identity.js';
import { redirectTarget } from './redirect-target.js';
import { SocialSignInError, type SocialSignInErrorCode } from './sign-in-errors.js';

/** How long a started sign-in may take at the provider. */
export const OIDC_STATE_TTL_MS = 10 * 60_000;
/** Sign-ins started per client address: each one stores a row, so they are counted like logins. */
export const SOCIAL_SIGN_IN_RATE_LIMIT: RateLimit = { limit: 30, windowMs: 60_000 };

export type StartResult = { ok: true; location: string } | { ok: false; error: SocialSignInErrorCode };

/** How the user was found: by the provider's subject, by a matching address (now linked), or new. */
export type SignInOutcome = 'signed_in' | 'linked' | 'created';

export type FinishResult =
  | { ok: true; user: UserRecord; outcome: SignInOutcome; location: string }
  | { ok: false; error: SocialSignInErrorCode };

export interface SocialSignInDeps {
  provider: OidcProviderConfig;
  publicUrl: string;
  storage: Storage;
  client: Pick<OidcClient, 'authorizationUrl' | 'exchange'>;
  now: () => Date;
  log: OidcLogger;
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Sign-in with an OpenID Connect provider (Google), from the form POST to the callback. The state,
 * nonce and PKCE verifier live in the database, keyed by the state's hash and bound to the browser
 * that started (its flow cookie), so any instance can finish a sign-in and a callback URL forwarded
 * to someone else's browser signs nobody in. Rules: docs/auth.md.
 */
export class SocialSignIn {
  constructor(private readonly deps: SocialSignInDeps) {}

  get providerId(): string {
    return this.deps.provider.id;
  }

  /**
   * Starts a sign-in for the browser holding `browserSecret`: returns the provider's authorization URL.
   * `next` is where the browser goes afterwards, when it is a path under PUBLIC_URL.
   */
  async start(input: { next: string | undefined; browserSecret: string; ip: string }): Promise<StartResult> {
    const { storage, now } = this.deps;
    const limited = await storage.rateLimits.hit(
      `oidc-start:ip:${input.ip}`,
      SOCIAL_SIGN_IN_RATE_LIMIT,
      now(),
    );
    if (!limited.allowed) return { ok: false, error: 'rate_limited' };
    await storage.oidcStates.prune(now());

    const checks: AuthorizationChecks = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      codeVerifier: client.randomPKCECodeVerifier(),
    };
    let location: URL;
    try {
      // Discovery happens here on first use; nothing is stored when the provider is unreachable.
      location = await this.deps.client.authorizationUrl(checks);
    } catch (error) {
      if (SocialSignInError.isInstance(error)) return { ok: false, error: error.code };
      throw error;
    }
    const startedAt = now();
    await storage.oidcStates.create({
      provider: this.deps.provider.id,
      stateHash: hashSecret(checks.state),
      browserHash: hashSecret(input.browserSecret),
      codeVerifier: checks.codeVerifier,
      nonce: checks.nonce,
      redirectTo: redirectTarget(input.next, this.deps.publicUrl),
      createdAt: startedAt,
      expiresAt: new Date(startedAt.getTime() + OIDC_STATE_TTL_MS),
    });
    return { ok: true, location: location.href };
  }

  /**
   * Finishes a sign-in from the provider's redirect (`query`: its whole query string) in the browser
   * holding `browserSecret`: validates state, code and ID token, then finds, links or creates the user.
   */
  async finish(input: { query: URLSearchParams; browserSecret: string | undefined }): Promise<FinishResult> {
    try {
      return await this.#finish(input);
    } catch (error) {
      if (SocialSignInError.isInstance(error)) return { ok: false, error: error.code };
      throw error;
    }
  }

  async #finish({
    query,
    browserSecret,
  }: {
    query: URLSearchParams;
    browserSecret: string | undefined;
  }): Promise<FinishResult> {
    const { storage, now, log } = this.deps;
    const state = query.get('state');
    if (!state || state.length > 512) return this.#fail('invalid_state', 'the callback has no state');
    // Taken (deleted) before anything else: whatever happens next, this state is never good again.
    const pending = await storage.oidcStates.take(hashSecret(state));
    if (!pending || pending.provider !== this.deps.provider.id)
      return this.#fail('invalid_state', 'no pending sign-in has this state');
    if (!browserSecret || !sameHash(hashSecret(browserSecret), pending.browserHash))
      return this.#fail('invalid_state', 'the sign-in was started in another browser');
    if (pending.expiresAt.getTime() <= now().getTime()) return this.#fail('expired_state', 'state expired');

    const error = query.get('error');
    if (error) {
      log.info({ error, description: query.get('error_description') }, 'the provider refused the sign-in');
      return { ok: false, error: error === 'access_denied' ? 'access_denied' : 'provider_error' };
    }
    if (!query.get('code')) return this.#fail('token_failed', 'the callback has no code');

    const claims = await this.deps.client.exchange(query, {
      state,
      nonce: pending.nonce,
      codeVerifier: pending.codeVerifier,
    });
    const found = identityFromClaims(claims);
    if (!found.ok) {
      return found.reason === 'email_unverified'
        ? this.#fail('email_unverified', 'the provider did not vouch for the e-mail address')
        : this.#fail('token_failed', 'the ID token claims are malformed');
    }
    const { user, outcome } = await this.#resolveUser(found.identity);
    log.info({ userId: user.id, outcome, provider: this.deps.provider.id }, 'signed in with the provider');
    return { ok: true, user, outcome, location: pending.redirectTo };
  }

  #fail(code: SocialSignInErrorCode, why: string): FinishResult {
    this.deps.log.info({ code }, `provider sign-in refused: ${why}`);
    return { ok: false, error: code };
  }

  /**
   * The user this identity signs in. Two first sign-ins at once may both try to link or create; the
   * unique indexes let one win and the other, retried, finds what the winner made.
   */
  async #resolveUser(identity: ProviderIdentity): Promise<{ user: UserRecord; outcome: SignInOutcome }> {
    try {
      return await this.deps.storage.transaction((tx) => this.#resolveIn(tx, identity));
    } catch (error) {
      this.deps.log.info({ err: (error as Error).message }, 'provider sign-in raced another one; retrying');
      return this.deps.storage.transaction((tx) => this.#resolveIn(tx, identity));
    }
  }

  async #resolveIn(
    tx: TransactionalStorage,
    identity: ProviderIdentity,
  ): Promise<{ user: UserRecord; outcome: SignInOutcome }> {
    const provider = this.deps.provider.id;
    const at = this.deps.now();
    const linked = await tx.socialAccounts.find(provider, identity.subject);
    const linkedUser = linked ? await tx.users.findById(linked.userId) : undefined;
    if (linked && linkedUser) {
      await tx.socialAccounts.markUsed(linked.id, at);
      const user = (await tx.users.update(linkedUser.id, { lastLoginAt: at })) ?? linkedUser;
      return { user, outcome: 'signed_in' };
    }

    const existing = await tx.users.findByEmail(identity.email);
    if (existing) {
      // The provider proves the address. If we had not verified it, whoever signed up with it may not
      // be its owner (a pre-hijacked account): their password and sessions go, the owner comes in.
      const takeover = !existing.emailVerified;
      if (takeover) await tx.sessions.deleteForUser(existing.id);
      const user =
        (await tx.users.update(existing.id, {
          emailVerified: true,
          ...(takeover ? { passwordHash: null } : {}),
          ...(!existing.firstName && !existing.lastName
            ? { firstName: identity.firstName, lastName: identity.lastName }
            : {}),
          ...(existing.avatarUrl ? {} : { avatarUrl: identity.avatarUrl }),
          lastLoginAt: at,
        })) ?? existing;
      await tx.socialAccounts.create({
        provider,
        subject: identity.subject,
        userId: user.id,
        email: identity.email,
        createdAt: at,
        lastLoginAt: at,
      });
      return { user, outcome: 'linked' };
    }

    const created = await tx.users.create({
      email: identity.email,
      passwordHash: null,
      emailVerified: true,
      createdAt: at,
    });
    const user =
      (await tx.users.update(created.id, {
        firstName: identity.firstName,
        lastName: identity.lastName,
        avatarUrl: identity.avatarUrl,
        lastLoginAt: at,
      })) ?? created;
    await tx.socialAccounts.create({
      provider,
      subject: identity.subject,
      userId: user.id,
      email: identity.email,
      createdAt: at,
      lastLoginAt: at,
    });
    return { user, outcome: 'created' };
  }
}
