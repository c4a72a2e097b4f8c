import { TOKEN_LIFETIME_DAYS, TOKEN_NAME_MAX_LENGTH } from '@planwright/sdk';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { AccountMailer } from '../auth/account-mailer.js';
import { authenticatedBody, errorsBody, unauthenticatedBody } from '../auth/allauth-responses.js';
import { type PasswordHasher, validatePassword } from '../auth/password/index.js';
import { checkBrowserRequest, clearSessionCookie, readCredentials } from '../auth/request-credentials.js';
import type { ResolvedSession, SessionService } from '../auth/session-service.js';
import type { ServerConfig } from '../config/config.js';
import type { SessionRecord } from '../storage/session-repository.js';
import type { Storage } from '../storage/storage.js';
import { emailKeyOf, type UserRecord } from '../storage/user-repository.js';
import { EMAIL_CHANGE_RATE_LIMITS, MAX_OTHER_EMAIL_ADDRESSES } from './account-routes.js';
import { allauthGuards } from './allauth-guards.js';
import { AUTH_RATE_LIMITS, readBody, tooMany } from './allauth-routes.js';

/** What the account's security routes are built from. */
export interface AccountSecurityDeps {
  config: ServerConfig;
  storage: Storage;
  sessions: SessionService;
  accountMailer: AccountMailer;
  now: () => Date;
  providers: string[];
  passwordHasher: PasswordHasher;
}

const endSessionsInput = z.object({
  sessions: z.array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER)).min(1).max(100),
});
const reauthenticateInput = z.object({
  password: z.string({ error: 'This field is required.' }).min(1, 'This field is required.').max(4096),
});
const changePasswordInput = z.object({
  current_password: z.string().max(4096).optional(),
  new_password: z.string({ error: 'This field is required.' }).min(1, 'This field is required.'),
});
const createTokenInput = z.object({
  name: z
    .string({ error: 'This field is required.' })
    .trim()
    .min(1, 'This field is required.')
    .max(TOKEN_NAME_MAX_LENGTH, `Ensure this value has at most ${TOKEN_NAME_MAX_LENGTH} characters.`)
    .refine((name) => !/[\p{Cc}\p{Cs}]/u.test(name), 'Names cannot hold control characters.'),
  expires_in_days: z
    .number({ error: 'A whole number of days.' })
    .int('A whole number of days.')
    .min(1, 'At least one day.')
    .max(TOKEN_LIFETIME_DAYS.max, `At most ${TOKEN_LIFETIME_DAYS.max} days.`)
    .default(TOKEN_LIFETIME_DAYS.default),
  scope: z.enum(['read', 'write'], { error: 'Choose read or write.' }).default('write'),
});

const emailInput = z.object({
  email: z
    .string({ error: 'This field is required.' })
    .trim()
    .min(1, 'This field is required.')
    .max(254, 'Enter a valid email address.')
    .pipe(z.email('Enter a valid email address.')),
});
const primaryInput = emailInput.extend({ primary: z.literal(true, { error: 'Only true is accepted.' }) });

const emailError = (message: string) => errorsBody([{ message, code: 'invalid', param: 'email' }]);

/** Seconds since the epoch, as allauth's timestamps are. */
const seconds = (date: Date) => date.getTime() / 1000;

/** A sign-in as allauth's session list shows it, with the client kind (our addition). */
function sessionBody(session: SessionRecord, current: SessionRecord) {
  return {
    id: session.number,
    client: session.client,
    user_agent: session.userAgent,
    ip: session.ip,
    created_at: seconds(session.createdAt),
    last_seen_at: seconds(session.lastSeenAt),
    is_current: session.id === current.id,
  };
}

/** A personal access token as its owner lists it: never the token itself. */
function tokenBody(token: SessionRecord) {
  return {
    id: token.number,
    name: token.name ?? '',
    scope: token.scope ?? 'write',
    token_hint: token.tokenHint ?? '',
    created_at: seconds(token.createdAt),
    expires_at: token.expiresAt ? seconds(token.expiresAt) : null,
    last_used_at: token.lastSeenAt.getTime() === token.createdAt.getTime() ? null : seconds(token.lastSeenAt),
  };
}

/**
 * The account's security over the allauth contract, for both clients (docs/auth.md): the signed-in sessions
 * (`auth/sessions`), reauthentication (`auth/reauthenticate`), the password (`account/password/change`), and
 * personal access tokens for scripts (`account/tokens`, our extension). Sensitive actions need a sign-in or a
 * reauthentication in the last 5 minutes; otherwise they answer allauth's 401 with the `reauthenticate` flow.
 */
export function accountSecurityRoutes(app: FastifyInstance, deps: AccountSecurityDeps): void {
  const { config, storage, sessions, accountMailer, now, providers, passwordHasher } = deps;

  for (const client of ['app', 'browser'] as const) {
    const prefix = `/_allauth/${client}/v1`;

    app.register(async (scope) => {
      if (client === 'browser') scope.addHook('preHandler', checkBrowserRequest(config));

      const { signedIn, recent } = allauthGuards({ sessions, storage, providers }, client);

      const listBody = async (userId: string, current: SessionRecord) => ({
        status: 200,
        data: (await storage.sessions.listForUser(userId, 'sign-in')).map((session) =>
          sessionBody(session, current),
        ),
      });

      /** `GET auth/sessions`: every signed-in session of the account, this one marked `is_current`. */
      scope.get(`${prefix}/auth/sessions`, async (request, reply) => {
        const signed = await signedIn(request, reply);
        if (!signed) return reply;
        return listBody(signed.user.id, signed.session);
      });

      /**
       * `DELETE auth/sessions` `{sessions: [id…]}`: ends those sessions of the account (their sockets close on
       * every instance). Ending this one signs the caller out: 401, as allauth answers.
       */
      scope.delete(`${prefix}/auth/sessions`, async (request, reply) => {
        const signed = await signedIn(request, reply);
        if (!signed) return reply;
        const input = readBody(endSessionsInput, request, reply);
        if (!input) return reply;
        await storage.sessions.deleteNumbers(signed.user.id, 'sign-in', input.sessions);
        if (input.sessions.includes(signed.session.number)) {
          if (client === 'browser') clearSessionCookie(reply, config);
          return reply.status(401).send(unauthenticatedBody(undefined, providers));
        }
        return listBody(signed.user.id, signed.session);
      });

      /** `POST auth/reauthenticate` `{password}`: the password again, so sensitive actions may follow for 5 minutes. */
      scope.post(`${prefix}/auth/reauthenticate`, async (request, reply) => {
        const signed = await signedIn(request, reply);
        if (!signed) return reply;
        const input = readBody(reauthenticateInput, request, reply);
        if (!input) return reply;
        if (!(await passwordMatches(reply, signed.user, input.password, 'password'))) return reply;
        const session =
          (await storage.sessions.update(signed.session.id, { method: 'password', methodAt: now() })) ??
          signed.session;
        return authenticatedBody(signed.user, session);
      });

      /**
       * `POST account/password/change` `{current_password, new_password}`: a new password (the current one is
       * asked; an account without one, made with Google, sets its first after a recent sign-in). Every other
       * sign-in ends, outstanding reset links stop working, and the owner is told by e-mail.
       */
      scope.post(`${prefix}/account/password/change`, async (request, reply) => {
        const signed = await signedIn(request, reply);
        if (!signed) return reply;
        const input = readBody(changePasswordInput, request, reply);
        if (!input) return reply;
        const { user } = signed;
        if (user.passwordHash !== null) {
          if (!input.current_password) {
            return reply
              .status(400)
              .send(
                errorsBody([
                  { message: 'This field is required.', code: 'required', param: 'current_password' },
                ]),
              );
          }
          if (!(await passwordMatches(reply, user, input.current_password, 'current_password'))) return reply;
        } else if (!(await recent(reply, signed))) {
          return reply;
        }
        const problems = validatePassword(input.new_password, {
          email: user.email,
          firstName: user.firstName,
          lastName: user.lastName,
        });
        if (problems.length > 0) {
          return reply
            .status(400)
            .send(errorsBody(problems.map((problem) => ({ ...problem, param: 'new_password' }))));
        }
        const passwordHash = await passwordHasher.hash(input.new_password);
        const at = now();
        const updated = await storage.transaction(async (tx) => {
          const saved = await tx.users.update(user.id, { passwordHash });
          // Whoever knew the old password is signed out everywhere else; this session has just proved it.
          await tx.sessions.deleteOtherSignIns(user.id, signed.session.id);
          await tx.accountKeys.deleteForUser(user.id, 'password_reset');
          await tx.accountKeys.deleteForUser(user.id, 'change_email');
          const session = await tx.sessions.update(signed.session.id, { method: 'password', methodAt: at });
          return { user: saved ?? user, session: session ?? signed.session };
        });
        await accountMailer.sendPasswordChanged(updated.user, user.passwordHash === null);
        return authenticatedBody(updated.user, updated.session);
      });

      /** The account's addresses as allauth lists them (`EmailAddress`): the primary one first. */
      const addressesBody = async (user: UserRecord) => ({
        status: 200,
        data: [
          { email: user.email, primary: true, verified: user.emailVerified },
          ...(await storage.emailAddresses.listForUser(user.id))
            .filter((address) => address.emailKey !== emailKeyOf(user.email))
            .map((address) => ({ email: address.email, primary: false, verified: address.verified })),
        ],
      });

      /** Counts an e-mail sent to `email` for the account (the profile's limits); answers 429 when over. */
      async function mayEmail(reply: FastifyReply, user: UserRecord, email: string): Promise<boolean> {
        for (const [bucket, rule] of [
          [`email-change:user:${user.id}`, EMAIL_CHANGE_RATE_LIMITS.perAccount],
          [`email-change:address:${emailKeyOf(email)}`, EMAIL_CHANGE_RATE_LIMITS.perAddress],
        ] as const) {
          const decision = await storage.rateLimits.hit(bucket, rule, now());
          if (!decision.allowed) {
            void tooMany(reply, decision.retryAfterSeconds);
            return false;
          }
        }
        return true;
      }

      /** `GET account/email`: the account's addresses. */
      scope.get(`${prefix}/account/email`, async (request, reply) => {
        const signed = await signedIn(request, reply);
        if (!signed) return reply;
        return addressesBody(signed.user);
      });

      /**
       * `POST account/email` `{email}`: adds an address, unverified, and sends it a link. An address another
       * account signs in with answers the same (listed, unverified), but its owner is told instead and no link
       * is sent. Sensitive; rate limited like the profile's change of address.
       */
      scope.post(`${prefix}/account/email`, async (request, reply) => {
        const signed = await signedIn(request, reply);
        if (!signed) return reply;
        const input = readBody(emailInput, request, reply);
        if (!input) return reply;
        if (!(await recent(reply, signed))) return reply;
        const { user } = signed;
        const listed = await storage.emailAddresses.listForUser(user.id);
        if (
          emailKeyOf(input.email) === emailKeyOf(user.email) ||
          listed.some((address) => address.emailKey === emailKeyOf(input.email))
        ) {
          return reply.status(400).send(emailError('This e-mail address is already on your account.'));
        }
        if (listed.length >= MAX_OTHER_EMAIL_ADDRESSES) {
          return reply
            .status(400)
            .send(emailError(`You cannot add more than ${MAX_OTHER_EMAIL_ADDRESSES} e-mail addresses.`));
        }
        if (!(await mayEmail(reply, user, input.email))) return reply;
        await storage.emailAddresses.add({
          userId: user.id,
          email: input.email,
          verified: false,
          createdAt: now(),
        });
        const holder = await storage.users.findByEmail(input.email);
        if (holder) await accountMailer.sendEmailInUse(holder.email);
        else await accountMailer.sendVerification(user, input.email);
        return addressesBody(user);
      });

      /** `PUT account/email` `{email}`: sends a listed, unverified address a new link. */
      scope.put(`${prefix}/account/email`, async (request, reply) => {
        const signed = await signedIn(request, reply);
        if (!signed) return reply;
        const input = readBody(emailInput, request, reply);
        if (!input) return reply;
        const { user } = signed;
        const isPrimary = emailKeyOf(input.email) === emailKeyOf(user.email);
        const address = isPrimary
          ? { email: user.email, verified: user.emailVerified }
          : await storage.emailAddresses.find(user.id, input.email);
        if (!address)
          return reply.status(400).send(emailError('This e-mail address is not on your account.'));
        if (address.verified)
          return reply.status(400).send(emailError('This e-mail address is verified already.'));
        if (!(await mayEmail(reply, user, address.email))) return reply;
        const holder = isPrimary ? undefined : await storage.users.findByEmail(address.email);
        if (holder) await accountMailer.sendEmailInUse(holder.email);
        else await accountMailer.sendVerification(user, address.email);
        return { status: 200 };
      });

      /**
       * `PATCH account/email` `{email, primary: true}`: a verified address becomes the one the account signs in
       * with; the old primary stays listed, and is told. Sensitive.
       */
      scope.patch(`${prefix}/account/email`, async (request, reply) => {
        const signed = await signedIn(request, reply);
        if (!signed) return reply;
        const input = readBody(primaryInput, request, reply);
        if (!input) return reply;
        if (!(await recent(reply, signed))) return reply;
        const { user } = signed;
        if (emailKeyOf(input.email) === emailKeyOf(user.email)) return addressesBody(user);
        const address = await storage.emailAddresses.find(user.id, input.email);
        if (!address)
          return reply.status(400).send(emailError('This e-mail address is not on your account.'));
        if (!address.verified) {
          return reply.status(400).send(emailError('Only a verified e-mail address can be made primary.'));
        }
        const holder = await storage.users.findByEmail(address.email);
        const taken = () =>
          reply.status(400).send(emailError('Another account signs in with this e-mail address.'));
        if (holder && holder.id !== user.id) return taken();
        const updated = await storage
          .transaction(async (tx) => {
            await tx.emailAddresses.remove(user.id, address.email);
            await tx.emailAddresses.add({
              userId: user.id,
              email: user.email,
              verified: user.emailVerified,
              createdAt: now(),
            });
            return tx.users.update(user.id, { email: address.email, emailVerified: true });
          })
          .catch(async (error: unknown) => {
            // Another account took it as its sign-in address at the same moment (the unique index refused).
            if ((await storage.users.findByEmail(address.email))?.id !== user.id) return undefined;
            throw error;
          });
        if (!updated) return taken();
        await accountMailer.sendEmailChanged(user.email, updated.email);
        return addressesBody(updated);
      });

      /** `DELETE account/email` `{email}`: removes an address that is neither the primary nor the last verified. */
      scope.delete(`${prefix}/account/email`, async (request, reply) => {
        const signed = await signedIn(request, reply);
        if (!signed) return reply;
        const input = readBody(emailInput, request, reply);
        if (!input) return reply;
        const { user } = signed;
        if (emailKeyOf(input.email) === emailKeyOf(user.email)) {
          return reply
            .status(400)
            .send(
              emailError('You cannot remove your primary e-mail address: make another one primary first.'),
            );
        }
        const listed = await storage.emailAddresses.listForUser(user.id);
        const address = listed.find((candidate) => candidate.emailKey === emailKeyOf(input.email));
        if (!address)
          return reply.status(400).send(emailError('This e-mail address is not on your account.'));
        const otherVerified =
          user.emailVerified || listed.some((other) => other !== address && other.verified);
        if (address.verified && !otherVerified) {
          return reply.status(400).send(emailError('You cannot remove your only verified e-mail address.'));
        }
        await storage.emailAddresses.remove(user.id, address.email);
        return addressesBody(user);
      });

      /** `GET account/tokens`: the account's personal access tokens, newest first, never the tokens themselves. */
      scope.get(`${prefix}/account/tokens`, async (request, reply) => {
        const signed = await signedIn(request, reply);
        if (!signed) return reply;
        return {
          status: 200,
          data: (await storage.sessions.listForUser(signed.user.id, 'token')).map(tokenBody),
        };
      });

      /**
       * `POST account/tokens` `{name, expires_in_days?, scope?}`: a new personal access token, answered this once
       * in `meta.token` (like `meta.session_token`). Needs a recent sign-in or reauthentication.
       */
      scope.post(`${prefix}/account/tokens`, async (request, reply) => {
        const signed = await signedIn(request, reply);
        if (!signed) return reply;
        const input = readBody(createTokenInput, request, reply);
        if (!input) return reply;
        if (!(await recent(reply, signed))) return reply;
        const issued = await sessions.issueToken(
          signed.user,
          {
            name: input.name,
            scope: input.scope,
            lifetimeDays: input.expires_in_days,
          },
          readCredentials(request, client),
        );
        return { status: 200, data: tokenBody(issued.session), meta: { token: issued.token } };
      });

      /** `DELETE account/tokens/{id}`: revokes the token at once (open sockets made with it close). */
      scope.delete<{ Params: { id: string } }>(`${prefix}/account/tokens/:id`, async (request, reply) => {
        const signed = await signedIn(request, reply);
        if (!signed) return reply;
        const id = Number(request.params.id);
        const ended = Number.isSafeInteger(id)
          ? await storage.sessions.deleteNumbers(signed.user.id, 'token', [id])
          : [];
        if (ended.length === 0) {
          return reply
            .status(404)
            .send({ status: 404, errors: [{ message: 'Token not found.', code: 'not_found' }] });
        }
        return { status: 200 };
      });
    });

    /**
     * Whether `password` is the user's; otherwise the 400 is sent (and counted: after 5 wrong ones in 5 minutes
     * the account's attempts are refused, as logins are).
     */
    async function passwordMatches(
      reply: FastifyReply,
      user: NonNullable<ResolvedSession['user']>,
      password: string,
      param: 'password' | 'current_password',
    ): Promise<boolean> {
      const failures = `reauth-failed:${user.id}`;
      const rule = AUTH_RATE_LIMITS.failedLoginsPerAccount;
      const failed = await storage.rateLimits.count(failures, rule.windowMs, now());
      if (failed >= rule.limit) {
        void tooMany(reply, Math.ceil(rule.windowMs / 1000));
        return false;
      }
      const verdict = user.passwordHash
        ? await passwordHasher.verify(password, user.passwordHash)
        : await passwordHasher.dummyVerify(password);
      if (verdict.ok) {
        await storage.rateLimits.clear(failures);
        return true;
      }
      await storage.rateLimits.record(failures, now());
      void reply
        .status(400)
        .send(errorsBody([{ message: 'Incorrect password.', code: 'incorrect_password', param }]));
      return false;
    }
  }
}
