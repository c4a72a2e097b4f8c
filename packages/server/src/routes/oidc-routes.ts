import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorsBody } from '../auth/allauth-responses.js';
import { checkFormCsrf } from '../auth/oidc/form-csrf.js';
import { errorTarget } from '../auth/oidc/redirect-target.js';
import type { SocialSignInErrorCode } from '../auth/oidc/sign-in-errors.js';
import { OIDC_STATE_TTL_MS, type SocialSignIn } from '../auth/oidc/social-sign-in.js';
import { readCredentials, setSessionCookie } from '../auth/request-credentials.js';
import { newSecret } from '../auth/secrets.js';
import type { SessionService } from '../auth/session-service.js';
import type { ServerConfig } from '../config/config.js';
import { fieldErrorsOf } from '../http/http-error.js';
import type { Storage } from '../storage/storage.js';

/** The callback registered at the provider, under PUBLIC_URL. */
export const OIDC_CALLBACK_PATH = '/accounts/google/login/callback/';
/**
 * HttpOnly cookie naming the browser a sign-in was started in; the pending sign-in stores its hash.
 * One value serves every sign-in the browser starts, so two tabs signing in at once both work.
 */
export const OIDC_BROWSER_COOKIE = 'oidc_browser';

const BROWSER_SECRET = /^[A-Za-z0-9_-]{43}$/;

const loginForm = z.object({
  process: z.literal('login', { error: 'Only process=login is supported.' }).optional(),
  next: z.string().max(4096).optional(),
});
const providerRedirectForm = z.object({
  provider: z.string({ error: 'This field is required.' }).min(1, 'This field is required.').max(64),
  callback_url: z.string().max(4096).optional(),
  process: z.literal('login', { error: 'Only process=login is supported.' }).optional(),
});

export interface OidcRouteDeps {
  config: ServerConfig;
  sessions: SessionService;
  /** Whether the account has a second factor to ask for after the provider. */
  storage: Pick<Storage, 'authenticators'>;
  /** Absent when no OpenID Connect client is configured. */
  signIn: SocialSignIn | undefined;
}

/**
 * Google sign-in (OpenID Connect, authorization code + PKCE): the spec's form POST to
 * `/accounts/google/login/`, allauth's `POST /_allauth/browser/v1/auth/provider/redirect`, and the
 * callback `/accounts/google/login/callback/`. Every outcome of the callback is a redirect: to `next`
 * signed in, or to the web page with `?error=<code>`, never an error page. Contract: docs/auth.md.
 */
export function oidcRoutes(app: FastifyInstance, deps: OidcRouteDeps): void {
  const { config, sessions, signIn, storage } = deps;

  const redirect = (reply: FastifyReply, location: string) =>
    reply.header('cache-control', 'no-store').redirect(location, 302);
  const fail = (reply: FastifyReply, code: SocialSignInErrorCode) =>
    redirect(reply, errorTarget(code, config.publicUrl));

  /** The browser's flow cookie, made on its first sign-in and refreshed on each one. */
  function browserSecret(request: FastifyRequest, reply: FastifyReply): string {
    const existing = request.cookies[OIDC_BROWSER_COOKIE];
    const secret = existing && BROWSER_SECRET.test(existing) ? existing : newSecret();
    void reply.setCookie(OIDC_BROWSER_COOKIE, secret, {
      path: '/',
      httpOnly: true,
      // Lax: sent on the provider's top-level redirect back to us, never on a cross-site subrequest.
      sameSite: 'lax',
      secure: config.sessions.secureCookies,
      maxAge: OIDC_STATE_TTL_MS / 1000,
    });
    return secret;
  }

  async function start(request: FastifyRequest, reply: FastifyReply, next: string | undefined) {
    if (!signIn) return fail(reply, 'not_configured');
    try {
      const result = await signIn.start({
        next,
        browserSecret: browserSecret(request, reply),
        ip: request.ip,
      });
      return result.ok ? redirect(reply, result.location) : fail(reply, result.error);
    } catch (error) {
      request.log.error({ err: error }, 'starting a provider sign-in failed unexpectedly');
      return fail(reply, 'unexpected');
    }
  }

  function refuseForgery(request: FastifyRequest, reply: FastifyReply): boolean {
    const failure = checkFormCsrf(request, config);
    if (!failure) return false;
    void reply.status(403).send({ status: 403, errors: [failure] });
    return true;
  }

  app.post('/accounts/google/login/', async (request, reply) => {
    if (refuseForgery(request, reply)) return reply;
    const form = loginForm.safeParse(request.body ?? {});
    if (!form.success) return reply.status(400).send(errorsBody(fieldErrorsOf(form.error, request.body)));
    return start(request, reply, form.data.next);
  });

  app.post('/_allauth/browser/v1/auth/provider/redirect', async (request, reply) => {
    if (refuseForgery(request, reply)) return reply;
    const form = providerRedirectForm.safeParse(request.body ?? {});
    if (!form.success) return reply.status(400).send(errorsBody(fieldErrorsOf(form.error, request.body)));
    if (!signIn || form.data.provider !== signIn.providerId) {
      return reply
        .status(400)
        .send(errorsBody([{ message: 'Unknown provider.', code: 'invalid', param: 'provider' }]));
    }
    return start(request, reply, form.data.callback_url);
  });

  // No automatic HEAD route: a HEAD (a link checker, a prefetch) would use the state up.
  app.get(OIDC_CALLBACK_PATH, { exposeHeadRoute: false }, async (request, reply) => {
    if (!signIn) return fail(reply, 'not_configured');
    try {
      // The raw query, as the provider sent it: openid-client checks every parameter (iss included).
      const at = request.url.indexOf('?');
      const query = new URLSearchParams(at === -1 ? '' : request.url.slice(at + 1));
      const result = await signIn.finish({ query, browserSecret: request.cookies[OIDC_BROWSER_COOKIE] });
      if (!result.ok) return fail(reply, result.error);
      const credentials = readCredentials(request, 'browser');
      const lookup = await sessions.lookup(credentials);
      // An account with a second factor is asked for it next, as after a password (the web page asks).
      const secondFactor = await storage.authenticators.hasActiveTotp(result.user.id);
      const issued = await sessions.issue(
        credentials,
        {
          user: result.user,
          authenticated: !secondFactor,
          ...(secondFactor && { pendingFlow: 'mfa_authenticate' as const }),
          method: 'socialaccount',
          provider: signIn.providerId,
        },
        lookup.kind === 'live' ? lookup.session : undefined,
      );
      setSessionCookie(reply, issued.token, config);
      return redirect(reply, result.location);
    } catch (error) {
      request.log.error({ err: error }, 'provider sign-in failed unexpectedly');
      return fail(reply, 'unexpected');
    }
  });
}
