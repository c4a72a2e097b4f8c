import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AccountMailer } from '../auth/account-mailer.js';
import {
  type AllauthError,
  authenticatedBody,
  errorsBody,
  unauthenticatedBody,
  userPayload,
} from '../auth/allauth-responses.js';
import { type PasswordHasher, validatePassword } from '../auth/password/index.js';
import {
  checkBrowserRequest,
  clearSessionCookie,
  readCredentials,
  setSessionCookie,
} from '../auth/request-credentials.js';
import { hashSecret } from '../auth/secrets.js';
import type {
  AuthClient,
  IssuedSession,
  SessionCredentials,
  SessionService,
} from '../auth/session-service.js';
import { verifyTurnstile } from '../auth/turnstile.js';
import type { ServerConfig } from '../config/config.js';
import { fieldErrorsOf } from '../http/http-error.js';
import type { AccountKeyRecord } from '../storage/account-key-repository.js';
import type { RateLimit } from '../storage/rate-limit-repository.js';
import type { SessionRecord } from '../storage/session-repository.js';
import type { Storage } from '../storage/storage.js';
import { emailKeyOf, type UserRecord } from '../storage/user-repository.js';

export interface AllauthDeps {
  config: ServerConfig;
  storage: Storage;
  sessions: SessionService;
  accountMailer: AccountMailer;
  now: () => Date;
  /** Providers offered for `provider_redirect` (e.g. `['google']`), empty when none is configured. */
  providers: string[];
  passwordHasher: PasswordHasher;
}

const MINUTE = 60_000;
/** allauth's default rate limits (ACCOUNT_RATE_LIMITS). */
export const AUTH_RATE_LIMITS = {
  loginPerIp: { limit: 30, windowMs: MINUTE },
  failedLoginsPerAccount: { limit: 5, windowMs: 5 * MINUTE },
  signupPerIp: { limit: 20, windowMs: MINUTE },
  resetPerIp: { limit: 20, windowMs: MINUTE },
  resetPerAddress: { limit: 5, windowMs: MINUTE },
} as const;

const emailField = z
  .string({ error: 'This field is required.' })
  .trim()
  .min(1, 'This field is required.')
  .max(254, 'Enter a valid email address.')
  .pipe(z.email('Enter a valid email address.'));
const passwordField = z.string({ error: 'This field is required.' }).min(1, 'This field is required.');
const keyField = z.string({ error: 'This field is required.' }).min(1).max(512);

const loginInput = z.object({ email: emailField, password: passwordField });
const signupInput = z.object({
  email: emailField,
  password: passwordField,
  terms_agreement: z.literal(true, {
    error: 'You must agree to the Terms and Conditions.',
    // The spec's client maps `required` on terms_agreement to its own message.
  }),
  phone_number_x: z.string().optional(),
  turnstile_token: z.string().max(4096).optional(),
});
const verifyInput = z.object({ key: keyField });
const requestResetInput = z.object({ email: emailField });
const resetInput = z.object({ key: keyField, password: passwordField });

/**
 * Parses a body, or answers allauth's 400 with one error per bad field. A bad address is `invalid`
 * (allauth's code), or `invalid_email` on sign-up (the code spec 000 §5 maps to a message).
 */
export function readBody<S extends z.ZodType>(
  schema: S,
  request: FastifyRequest,
  reply: FastifyReply,
  emailCode: 'invalid' | 'invalid_email' = 'invalid',
): z.output<S> | undefined {
  const result = schema.safeParse(request.body ?? {});
  if (result.success) return result.data;
  const errors = fieldErrorsOf(result.error, request.body).map((error) => {
    if (error.param === 'terms_agreement') return { ...error, code: 'required' };
    if (error.param === 'email' && error.code !== 'required') return { ...error, code: emailCode };
    return error;
  });
  void reply.status(400).send(errorsBody(errors));
  return undefined;
}

/** The token goes to the app in `meta.session_token`, to the browser as the `sessionid` cookie (and meta). */
function deliver(
  reply: FastifyReply,
  client: AuthClient,
  issued: IssuedSession,
  config: ServerConfig,
): string {
  if (client === 'browser') setSessionCookie(reply, issued.token, config);
  return issued.token;
}

/**
 * The django-allauth headless API for both clients (`/_allauth/app/v1/…`, `/_allauth/browser/v1/…`).
 * Envelopes, codes and flows: docs/auth.md.
 */
export function allauthRoutes(app: FastifyInstance, deps: AllauthDeps): void {
  const { config, storage, sessions, accountMailer, now, providers, passwordHasher } = deps;

  for (const client of ['app', 'browser'] as const) {
    const prefix = `/_allauth/${client}/v1`;

    app.register(async (scope) => {
      if (client === 'browser') scope.addHook('preHandler', checkBrowserRequest(config));

      scope.get(`${prefix}/config`, async () => ({
        status: 200,
        data: {
          account: {
            login_methods: ['email'],
            is_open_for_signup: true,
            email_verification_by_code_enabled: false,
            login_by_code_enabled: false,
            password_reset_by_code_enabled: false,
          },
          ...(providers.length > 0
            ? {
                socialaccount: {
                  providers: providers.map((id) => ({
                    id,
                    name: id === 'google' ? 'Google' : id,
                    flows: ['provider_redirect'],
                  })),
                },
              }
            : {}),
        },
      }));

      scope.get(`${prefix}/auth/session`, async (request, reply) => {
        const lookup = await sessions.lookup(readCredentials(request, client));
        if (lookup.kind === 'gone')
          return reply.status(410).send(unauthenticatedBody(undefined, providers, undefined, 410));
        if (lookup.kind === 'live' && lookup.session.authenticated && lookup.user) {
          // The browser's cookie is its token: handing it back lets the web app send it as
          // X-Session-Token to /api/v1/, also after a sign-in that happened in a redirect (Google).
          const token = client === 'browser' ? readCredentials(request, client).token : undefined;
          return reply.send(authenticatedBody(lookup.user, lookup.session, token));
        }
        return reply
          .status(401)
          .send(unauthenticatedBody(lookup.kind === 'live' ? lookup.session : undefined, providers));
      });

      scope.delete(`${prefix}/auth/session`, async (request, reply) => {
        const lookup = await sessions.lookup(readCredentials(request, client));
        if (lookup.kind === 'live') await sessions.end(lookup.session);
        if (client === 'browser') clearSessionCookie(reply, config);
        return reply.status(401).send(unauthenticatedBody(undefined, providers));
      });

      scope.post(`${prefix}/auth/login`, async (request, reply) => {
        const start = await beginSignIn(request, reply, client, 'login', AUTH_RATE_LIMITS.loginPerIp);
        if (!start) return reply;
        const { credentials, previous } = start;
        const input = readBody(loginInput, request, reply);
        if (!input) return reply;

        const failures = `login-failed:${emailKeyOf(input.email)}`;
        const failed = await storage.rateLimits.count(
          failures,
          AUTH_RATE_LIMITS.failedLoginsPerAccount.windowMs,
          now(),
        );
        const user = await storage.users.findByEmail(input.email);
        const throttled = failed >= AUTH_RATE_LIMITS.failedLoginsPerAccount.limit;
        // Locked by wrong passwords (anyone can cause that): an account with a second factor still lets the right
        // password through to its code, which no guesser has (docs/auth.md "Rules", lockout).
        if (throttled && !(user && (await storage.authenticators.hasActiveTotp(user.id)))) {
          return reply.status(400).send(
            errorsBody([
              {
                message: 'Too many failed login attempts. Try again later.',
                code: 'too_many_login_attempts',
              },
            ]),
          );
        }
        const verdict = user?.passwordHash
          ? await passwordHasher.verify(input.password, user.passwordHash)
          : undefined;
        if (!verdict) await passwordHasher.dummyVerify(input.password); // an unknown address costs what a wrong password does
        if (!user || !verdict?.ok) {
          await storage.rateLimits.record(failures, now());
          // While locked, a wrong password answers as the lock does: nothing tells this account apart.
          return reply.status(400).send(
            errorsBody([
              throttled
                ? {
                    message: 'Too many failed login attempts. Try again later.',
                    code: 'too_many_login_attempts',
                  }
                : {
                    message: 'The email address and/or password you specified are not correct.',
                    code: 'email_password_mismatch',
                    param: 'password',
                  },
            ]),
          );
        }
        if (!throttled) await storage.rateLimits.clear(failures);
        if (verdict.needsRehash)
          await storage.users.update(user.id, { passwordHash: await passwordHasher.hash(input.password) });
        if (!user.emailVerified) {
          await accountMailer.sendVerification(user, user.email);
          const pending = await sessions.issue(
            credentials,
            { user, authenticated: false, pendingFlow: 'verify_email' },
            previous,
          );
          return reply
            .status(401)
            .send(unauthenticatedBody(pending.session, providers, deliver(reply, client, pending, config)));
        }
        if (await storage.authenticators.hasActiveTotp(user.id)) {
          // The password was right; the second factor comes next (`auth/2fa/authenticate`).
          const pending = await sessions.issue(
            credentials,
            { user, authenticated: false, pendingFlow: 'mfa_authenticate', method: 'password' },
            previous,
          );
          return reply
            .status(401)
            .send(unauthenticatedBody(pending.session, providers, deliver(reply, client, pending, config)));
        }
        const loggedIn = (await storage.users.update(user.id, { lastLoginAt: now() })) ?? user;
        const issued = await sessions.issue(
          credentials,
          { user: loggedIn, authenticated: true, method: 'password' },
          previous,
        );
        return reply.send(
          authenticatedBody(loggedIn, issued.session, deliver(reply, client, issued, config)),
        );
      });

      scope.post(`${prefix}/auth/signup`, async (request, reply) => {
        const start = await beginSignIn(request, reply, client, 'signup', AUTH_RATE_LIMITS.signupPerIp);
        if (!start) return reply;
        const { credentials, previous } = start;
        const input = readBody(signupInput, request, reply, 'invalid_email');
        if (!input) return reply;

        const errors: AllauthError[] = validatePassword(input.password, { email: input.email }).map(
          (problem) => ({
            ...problem,
            param: 'password',
          }),
        );
        if (config.turnstile) {
          const captcha = await verifyTurnstile(config.turnstile, input.turnstile_token, credentials.ip);
          if (captcha) errors.push(captcha);
        }
        if (errors.length > 0) return reply.status(400).send(errorsBody(errors));

        // Every outcome below answers the same 401 "verify your e-mail": a bot, a taken address and a
        // new account must look alike from outside.
        const passwordHash = await passwordHasher.hash(input.password);
        const answerPending = async (user: UserRecord | undefined) => {
          const pending = await sessions.issue(
            credentials,
            { user, authenticated: false, pendingFlow: 'verify_email' },
            previous,
          );
          return reply
            .status(401)
            .send(unauthenticatedBody(pending.session, providers, deliver(reply, client, pending, config)));
        };
        if (input.phone_number_x) {
          request.log.info('sign-up honeypot filled: answered like a sign-up, no account created');
          return answerPending(undefined);
        }
        const existing = await storage.users.findByEmail(input.email);
        if (existing) {
          await accountMailer.sendAccountExists(existing.email);
          return answerPending(undefined);
        }
        let user: UserRecord;
        try {
          user = await storage.users.create({
            email: input.email,
            passwordHash,
            emailVerified: false,
            createdAt: now(),
          });
        } catch (error) {
          // Two sign-ups for one address at once: the unique index lets one through; the other is a taken address.
          if (!(await storage.users.findByEmail(input.email))) throw error;
          await accountMailer.sendAccountExists(input.email);
          return answerPending(undefined);
        }
        await accountMailer.sendVerification(user, user.email);
        return answerPending(user);
      });

      scope.get(`${prefix}/auth/email/verify`, async (request, reply) => {
        const key = headerValue(request, 'x-email-verification-key');
        const found = key ? await findVerificationKey(key) : undefined;
        if (!found || 'error' in found)
          return reply.status(400).send(errorsBody([found?.error ?? invalidKey()]));
        const lookup = await sessions.lookup(readCredentials(request, client));
        const isAuthenticating =
          lookup.kind === 'live' &&
          lookup.session.pendingFlow === 'verify_email' &&
          lookup.session.userId === found.user.id;
        return reply.send({
          status: 200,
          data: { email: found.key.email, user: userPayload(found.user) },
          meta: { is_authenticating: isAuthenticating },
        });
      });

      scope.post(`${prefix}/auth/email/verify`, async (request, reply) => {
        const input = readBody(verifyInput, request, reply);
        if (!input) return reply;
        const found = await findVerificationKey(input.key);
        if ('error' in found) return reply.status(400).send(errorsBody([found.error]));
        if (found.key.purpose === 'change_email') {
          // A change of address the profile asked for: nobody is signed in or out by it.
          const changed = await changeAddress(found.key, found.user);
          if (!changed) return reply.status(400).send(errorsBody([invalidKey()]));
          return reply.status(401).send(unauthenticatedBody(undefined, providers));
        }
        if (!(await storage.accountKeys.consume(found.key.id, now()))) {
          return reply.status(400).send(errorsBody([invalidKey()]));
        }
        // The link proves the address it was sent to: the primary one, or another the account lists.
        const provesPrimary = emailKeyOf(found.user.email) === emailKeyOf(found.key.email);
        if (!provesPrimary) await storage.emailAddresses.markVerified(found.user.id, found.key.email);
        const verified = provesPrimary
          ? ((await storage.users.update(found.user.id, { emailVerified: true })) ?? found.user)
          : found.user;
        const credentials = readCredentials(request, client);
        const lookup = await sessions.lookup(credentials);
        if (
          lookup.kind === 'live' &&
          lookup.session.pendingFlow === 'verify_email' &&
          lookup.session.userId === verified.id &&
          verified.emailVerified
        ) {
          const loggedIn = (await storage.users.update(verified.id, { lastLoginAt: now() })) ?? verified;
          const issued = await sessions.issue(
            credentials,
            { user: loggedIn, authenticated: true, method: 'password' },
            lookup.session,
          );
          return reply.send(
            authenticatedBody(loggedIn, issued.session, deliver(reply, client, issued, config)),
          );
        }
        return reply.status(401).send(unauthenticatedBody(undefined, providers));
      });

      scope.post(`${prefix}/auth/password/request`, async (request, reply) => {
        const credentials = readCredentials(request, client);
        const byIp = await storage.rateLimits.hit(
          `reset:ip:${credentials.ip}`,
          AUTH_RATE_LIMITS.resetPerIp,
          now(),
        );
        if (!byIp.allowed) return tooMany(reply, byIp.retryAfterSeconds);
        const input = readBody(requestResetInput, request, reply);
        if (!input) return reply;
        const byAddress = await storage.rateLimits.hit(
          `reset:email:${emailKeyOf(input.email)}`,
          AUTH_RATE_LIMITS.resetPerAddress,
          now(),
        );
        if (!byAddress.allowed) return tooMany(reply, byAddress.retryAfterSeconds);
        const user = await storage.users.findByEmail(input.email);
        if (user) await accountMailer.sendPasswordReset(user);
        return reply.send({ status: 200 });
      });

      scope.get(`${prefix}/auth/password/reset`, async (request, reply) => {
        const key = headerValue(request, 'x-password-reset-key');
        const found = key ? await findResetKey(key) : undefined;
        if (!found) return reply.status(400).send(errorsBody([tokenInvalid()]));
        return reply.send({ status: 200, data: { user: userPayload(found.user) } });
      });

      scope.post(`${prefix}/auth/password/reset`, async (request, reply) => {
        const input = readBody(resetInput, request, reply);
        if (!input) return reply;
        const found = await findResetKey(input.key);
        if (!found) return reply.status(400).send(errorsBody([tokenInvalid()]));
        const problems = validatePassword(input.password, {
          email: found.user.email,
          firstName: found.user.firstName,
          lastName: found.user.lastName,
        });
        if (problems.length > 0) {
          return reply
            .status(400)
            .send(errorsBody(problems.map((problem) => ({ ...problem, param: 'password' }))));
        }
        const passwordHash = await passwordHasher.hash(input.password);
        const provesAddress = emailKeyOf(found.user.email) === emailKeyOf(found.key.email);
        const reset = await storage
          .transaction(async (tx) => {
            // Deleting every reset key of the account is what uses this one: no other e-mailed link
            // works after it, and of two links used at once only the request that deleted its own goes on.
            const deleted = await tx.accountKeys.deleteForUser(found.user.id, 'password_reset');
            if (!deleted.some((key) => key.id === found.key.id && key.usedAt === null))
              throw new ResetKeyGone();
            // A change of address asked for by whoever knew the old password is never completed.
            await tx.accountKeys.deleteForUser(found.user.id, 'change_email');
            await tx.users.update(found.user.id, {
              passwordHash,
              ...(provesAddress ? { emailVerified: true } : {}),
            });
            // A new password ends every session: whoever knew the old one is signed out everywhere.
            await tx.sessions.deleteForUser(found.user.id);
            return true;
          })
          .catch((error: unknown) => {
            if (error instanceof ResetKeyGone) return false;
            throw error;
          });
        if (!reset) return reply.status(400).send(errorsBody([tokenInvalid()]));
        // The e-mailed link proved the address: the new password signs in at once, whoever locked the account.
        await storage.rateLimits.clear(`login-failed:${emailKeyOf(found.user.email)}`);
        if (client === 'browser') clearSessionCookie(reply, config);
        return reply.status(401).send(unauthenticatedBody(undefined, providers));
      });
    });
  }

  /**
   * What login and sign-up both do first: refuse a client already signed in (409) and count the attempt
   * against its address's rate limit (429). Returns the credentials and the session to replace.
   */
  async function beginSignIn(
    request: FastifyRequest,
    reply: FastifyReply,
    client: AuthClient,
    action: 'login' | 'signup',
    rule: RateLimit,
  ): Promise<{ credentials: SessionCredentials; previous: SessionRecord | undefined } | undefined> {
    const credentials = readCredentials(request, client);
    const lookup = await sessions.lookup(credentials);
    if (lookup.kind === 'live' && lookup.session.authenticated) {
      void reply.status(409).send({ status: 409 });
      return undefined;
    }
    const limited = await storage.rateLimits.hit(`${action}:ip:${credentials.ip}`, rule, now());
    if (!limited.allowed) {
      void tooMany(reply, limited.retryAfterSeconds);
      return undefined;
    }
    return { credentials, previous: lookup.kind === 'live' ? lookup.session : undefined };
  }

  /**
   * Completes a change of address: the key's address becomes the account's, verified, and the old address is
   * told. Refused (false, nothing changed, the key still unused) when another account has the address by now,
   * or when another request used the key first.
   */
  async function changeAddress(key: AccountKeyRecord, user: UserRecord): Promise<boolean> {
    const holder = await storage.users.findByEmail(key.email);
    if (holder && holder.id !== user.id) return false;
    const changed = await storage
      .transaction(async (tx) => {
        if (!(await tx.accountKeys.consume(key.id, now()))) throw new KeyGone();
        // The new address is now the primary one (users.email); the old one leaves the account.
        await tx.emailAddresses.remove(user.id, key.email);
        return tx.users.update(user.id, { email: key.email, emailVerified: true });
      })
      .catch(async (error: unknown) => {
        if (error instanceof KeyGone) return undefined;
        // Taken at the same moment by another account: the unique address index refused it.
        if ((await storage.users.findByEmail(key.email))?.id !== user.id) return undefined;
        throw error;
      });
    if (!changed) return false;
    if (emailKeyOf(user.email) !== emailKeyOf(changed.email)) {
      await accountMailer.sendEmailChanged(user.email, changed.email);
    }
    return true;
  }

  async function findVerificationKey(
    key: string,
  ): Promise<{ key: AccountKeyRecord; user: UserRecord } | { error: AllauthError }> {
    const stored = await storage.accountKeys.findAny(['verify_email', 'change_email'], hashSecret(key));
    const user = stored ? await storage.users.findById(stored.userId) : undefined;
    if (!stored || !user) return { error: invalidKey() };
    if (stored.usedAt) {
      return user.emailVerified && emailKeyOf(user.email) === emailKeyOf(stored.email)
        ? {
            error: {
              message: 'This email address has already been verified.',
              code: 'already_verified',
              param: 'key',
            },
          }
        : { error: invalidKey() };
    }
    if (stored.expiresAt.getTime() <= now().getTime()) return { error: invalidKey() };
    if (stored.purpose === 'change_email') {
      // An address another account has meanwhile taken cannot become this account's.
      const holder = await storage.users.findByEmail(stored.email);
      if (holder && holder.id !== user.id) return { error: invalidKey() };
    }
    return { key: stored, user };
  }

  async function findResetKey(key: string) {
    const stored = await storage.accountKeys.find('password_reset', hashSecret(key));
    if (!stored || stored.usedAt || stored.expiresAt.getTime() <= now().getTime()) return undefined;
    const user = await storage.users.findById(stored.userId);
    return user ? { key: stored, user } : undefined;
  }
}

/** Rolls back a password reset whose key another request used (and deleted) first. */
class ResetKeyGone extends Error {}

/** Rolls back a change of address whose key another request used first. */
class KeyGone extends Error {}

function invalidKey(): AllauthError {
  return { message: 'Invalid or expired key.', code: 'invalid', param: 'key' };
}

function tokenInvalid(): AllauthError {
  return { message: 'The password reset token was invalid.', code: 'token_invalid', param: 'key' };
}

export function tooMany(reply: FastifyReply, retryAfterSeconds: number) {
  return reply.status(429).header('retry-after', String(retryAfterSeconds)).send({ status: 429 });
}

function headerValue(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value.length > 0 && value.length <= 512 ? value : undefined;
}
