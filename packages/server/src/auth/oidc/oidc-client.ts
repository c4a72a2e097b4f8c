import * as client from 'openid-client';
import type { OidcProviderConfig } from '../../config/config.js';
import { hasEmailClaim } from './provider-identity.js';
import { SocialSignInError } from './sign-in-errors.js';

/** The scopes every sign-in asks for: who (openid), the address (email), the name and picture (profile). */
export const OIDC_SCOPES = 'openid email profile';

/** What the client logs through (Fastify's pino logger fits). */
export interface OidcLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface OidcClientOptions {
  provider: OidcProviderConfig;
  /** `${PUBLIC_URL}/accounts/google/login/callback/`, registered at the provider. */
  redirectUri: string;
  log: OidcLogger;
  /** The fetch every request to the provider goes through; the global one (looked up per call) by default. */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
  /** Per request to the provider. Default 10 s. */
  timeoutSeconds?: number;
}

/** The secrets a sign-in was started with, checked again when the provider sends the browser back. */
export interface AuthorizationChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** A network failure (refused, reset, DNS, timeout) rather than an answer we did not like. */
function isNetworkFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return true;
  return error instanceof TypeError && error.message === 'fetch failed';
}

/** What the logs say about a failure: openid-client's code, the provider's OAuth error, the network cause. */
function describe(error: unknown): Record<string, string> {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields = error as Error & { code?: unknown; error?: unknown; error_description?: unknown };
  const described: Record<string, string> = { message: error.message };
  if (typeof fields.code === 'string') described.code = fields.code;
  if (typeof fields.error === 'string') described.oauthError = fields.error;
  if (typeof fields.error_description === 'string')
    described.oauthErrorDescription = fields.error_description;
  if (error.cause instanceof Error) described.cause = error.cause.message;
  return described;
}

/**
 * The relying party side of OpenID Connect, through openid-client: the authorization URL (code flow
 * with PKCE S256, state and nonce) and the code exchange with ID token validation (issuer, audience,
 * signature, expiry, nonce). The provider's metadata is discovered on first use and cached; a failed
 * discovery is logged and forgotten, so the next sign-in tries again.
 */
export class OidcClient {
  #configuration: Promise<client.Configuration> | undefined;

  constructor(private readonly options: OidcClientOptions) {}

  get issuer(): string {
    return this.options.provider.issuer;
  }

  /** Where to send the browser to sign in. Throws {@link SocialSignInError} `provider_unavailable`. */
  async authorizationUrl(checks: AuthorizationChecks): Promise<URL> {
    const configuration = await this.configuration();
    return client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.options.redirectUri,
      scope: OIDC_SCOPES,
      state: checks.state,
      nonce: checks.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
    });
  }

  /**
   * Redeems the code of a callback (its whole query) and returns the validated ID token claims,
   * completed from UserInfo when the ID token has no e-mail. Throws {@link SocialSignInError}:
   * `provider_unavailable` when the provider cannot be reached, `token_failed` for anything it
   * answered that does not check out.
   */
  async exchange(
    callbackQuery: URLSearchParams,
    checks: AuthorizationChecks,
  ): Promise<Record<string, unknown>> {
    const configuration = await this.configuration();
    const currentUrl = new URL(this.options.redirectUri);
    for (const [name, value] of callbackQuery) currentUrl.searchParams.append(name, value);
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(configuration, currentUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      throw this.failure('code exchange', error);
    }
    const claims = tokens.claims();
    if (!claims)
      throw new SocialSignInError('token_failed', { detail: 'the token response has no ID token' });
    if (hasEmailClaim(claims)) return { ...claims };
    try {
      const userInfo = await client.fetchUserInfo(configuration, tokens.access_token, claims.sub);
      // The ID token's claims win: they are the validated ones; UserInfo only fills the gaps.
      return { ...userInfo, ...claims };
    } catch (error) {
      throw this.failure('UserInfo request', error);
    }
  }

  private configuration(): Promise<client.Configuration> {
    this.#configuration ??= this.discover().catch((error: unknown) => {
      this.#configuration = undefined;
      throw error;
    });
    return this.#configuration;
  }

  private async discover(): Promise<client.Configuration> {
    const { issuer, clientId, clientSecret } = this.options.provider;
    // http:// is only accepted for loopback issuers (config.ts): tests run a provider on 127.0.0.1.
    const insecure = new URL(issuer).protocol === 'http:';
    try {
      const configuration = await client.discovery(
        new URL(issuer),
        clientId,
        { client_secret: clientSecret },
        client.ClientSecretPost(clientSecret),
        {
          [client.customFetch]: (url, init) =>
            (this.options.fetch ?? globalThis.fetch)(url, init as RequestInit),
          timeout: this.options.timeoutSeconds ?? 10,
          execute: [
            ...(insecure ? [client.allowInsecureRequests] : []),
            // Check the ID token's signature against the provider's keys too, not only TLS.
            client.enableNonRepudiationChecks,
          ],
        },
      );
      this.options.log.info({ issuer }, `OpenID Connect provider ready: ${issuer}`);
      return configuration;
    } catch (error) {
      this.options.log.error(
        { issuer, failure: describe(error) },
        `OpenID Connect discovery failed for ${issuer}: Google sign-in answers error=provider_unavailable until the issuer can be reached (OIDC_ISSUER)`,
      );
      throw new SocialSignInError('provider_unavailable', { cause: error });
    }
  }

  private failure(step: string, error: unknown): SocialSignInError {
    const { issuer } = this.options.provider;
    if (isNetworkFailure(error)) {
      this.options.log.error(
        { issuer, failure: describe(error) },
        `OpenID Connect ${step} failed: ${issuer} unreachable`,
      );
      return new SocialSignInError('provider_unavailable', { cause: error });
    }
    this.options.log.warn({ issuer, failure: describe(error) }, `OpenID Connect ${step} failed`);
    return new SocialSignInError('token_failed', { cause: error });
  }
}
