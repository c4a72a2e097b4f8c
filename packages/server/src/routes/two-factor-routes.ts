import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { authenticatedBody, errorsBody, unauthenticatedBody } from '../auth/allauth-responses.js';
import { checkBrowserRequest, readCredentials, setSessionCookie } from '../auth/request-credentials.js';
import type { SessionService } from '../auth/session-service.js';
import {
  newRecoveryCodes,
  newTotpSecret,
  normalizedRecoveryCode,
  recoveryCodeHash,
  totpStep,
  totpUrl,
} from '../auth/two-factor.js';
import type { ServerConfig } from '../config/config.js';
import type {
  AuthenticatorRecord,
  RecoveryCodesData,
  TotpData,
} from '../storage/authenticator-repository.js';
import type { SessionRecord } from '../storage/session-repository.js';
import type { Storage } from '../storage/storage.js';
import type { UserRecord } from '../storage/user-repository.js';
import { allauthGuards } from './allauth-guards.js';
import { AUTH_RATE_LIMITS, readBody, tooMany } from './allauth-routes.js';

/** What the two-factor routes are built from. */
export interface TwoFactorDeps {
  config: ServerConfig;
  storage: Storage;
  sessions: SessionService;
  now: () => Date;
  providers: string[];
}

/** A TOTP secret being set up is offered again for this long, so a reload shows the same QR code. */
const PENDING_TOTP_MS = 10 * 60_000;

const codeInput = z.object({
  code: z.string({ error: 'This field is required.' }).trim().min(1, 'This field is required.').max(64),
});

const seconds = (date: Date | null) => (date === null ? null : date.getTime() / 1000);

function totpBody(totp: AuthenticatorRecord) {
  return { type: 'totp', created_at: seconds(totp.createdAt), last_used_at: seconds(totp.lastUsedAt) };
}

function recoveryCodesBody(codes: AuthenticatorRecord, shown: string[] = []) {
  const data = codes.data as RecoveryCodesData;
  return {
    type: 'recovery_codes',
    created_at: seconds(codes.createdAt),
    last_used_at: seconds(codes.lastUsedAt),
    total_code_count: data.hashes.length,
    unused_code_count: data.hashes.length - data.used.length,
    // Only their hashes are kept: the codes are shown once, when made.
    unused_codes: shown,
  };
}

/** Whether a TOTP authenticator is set up and in use (not merely offered). */
const active = (totp: AuthenticatorRecord | undefined): boolean =>
  totp !== undefined && totp.activatedAt !== null;

/**
 * Two-factor authentication over the allauth contract, for both clients (docs/auth.md "Two-factor
 * authentication"): a TOTP authenticator (RFC 6238) set up from a QR code and turned off, ten single-use recovery
 * codes shown once and made again, the `mfa_authenticate` step of a sign-in, and reauthentication by code.
 */
export function twoFactorRoutes(app: FastifyInstance, deps: TwoFactorDeps): void {
  const { config, storage, sessions, now, providers } = deps;

  /** Whether `code` is the user's: a TOTP code not used before, or an unused recovery code (then spent). */
  async function codeMatches(user: UserRecord, code: string): Promise<'totp' | 'recovery_codes' | undefined> {
    const totp = await storage.authenticators.totp(user.id);
    if (!totp || !active(totp)) return undefined;
    const at = now();
    const step = totpStep((totp.data as TotpData).secret, code, at);
    if (step !== undefined)
      return (await storage.authenticators.spendTotpStep(totp.id, step, at)) ? 'totp' : undefined;
    if (normalizedRecoveryCode(code).length !== 10) return undefined;
    return (await storage.authenticators.spendRecoveryCode(user.id, recoveryCodeHash(code), at))
      ? 'recovery_codes'
      : undefined;
  }

  /**
   * The code given for `user`, checked and counted: after 5 wrong ones in 5 minutes the account's codes are
   * refused (429) as logins are. Sends the refusal and answers undefined when it is not good.
   */
  async function checkCode(reply: FastifyReply, user: UserRecord, code: string) {
    const failures = `mfa-failed:${user.id}`;
    const rule = AUTH_RATE_LIMITS.failedLoginsPerAccount;
    if ((await storage.rateLimits.count(failures, rule.windowMs, now())) >= rule.limit) {
      void tooMany(reply, Math.ceil(rule.windowMs / 1000));
      return undefined;
    }
    const kind = await codeMatches(user, code);
    if (kind) {
      await storage.rateLimits.clear(failures);
      return kind;
    }
    await storage.rateLimits.record(failures, now());
    void reply
      .status(400)
      .send(errorsBody([{ message: 'Incorrect code.', code: 'incorrect_code', param: 'code' }]));
    return undefined;
  }

  /** The authenticated answer with the second factor among its methods, as allauth's after 2FA. */
  function withMfa(
    user: UserRecord,
    session: SessionRecord,
    kind: 'totp' | 'recovery_codes',
    token?: string,
  ) {
    const body = authenticatedBody(user, session, token);
    return {
      ...body,
      data: {
        ...body.data,
        methods: [...body.data.methods, { method: 'mfa', at: now().getTime() / 1000, type: kind }],
      },
    };
  }

  for (const client of ['app', 'browser'] as const) {
    const prefix = `/_allauth/${client}/v1`;

    app.register(async (scope) => {
      if (client === 'browser') scope.addHook('preHandler', checkBrowserRequest(config));

      const { signedIn, recent } = allauthGuards({ sessions, storage, providers }, client);

      /** `GET account/authenticators`: the account's TOTP and recovery codes. */
      scope.get(`${prefix}/account/authenticators`, async (request, reply) => {
        const signed = await signedIn(request, reply);
        if (!signed) return reply;
        const list = await storage.authenticators.list(signed.user.id);
        return {
          status: 200,
          data: list.map((entry) => {
            if (entry.type === 'totp') return totpBody(entry);
            const { unused_codes: _hidden, ...counts } = recoveryCodesBody(entry);
            return counts;
          }),
        };
      });

      /**
       * `GET account/authenticators/totp`: the active authenticator, or 404 with a `secret` and its `totp_url` to
       * set one up with (the same for 10 minutes).
       */
      scope.get(`${prefix}/account/authenticators/totp`, async (request, reply) => {
        const signed = await signedIn(request, reply);
        if (!signed) return reply;
        let totp = await storage.authenticators.totp(signed.user.id);
        if (totp && active(totp)) return { status: 200, data: totpBody(totp) };
        if (!totp || now().getTime() - totp.createdAt.getTime() > PENDING_TOTP_MS) {
          totp = await storage.authenticators.pendTotp(signed.user.id, newTotpSecret(), now());
        }
        const secret = (totp?.data as TotpData | undefined)?.secret ?? '';
        return reply
          .status(404)
          .send({ status: 404, meta: { secret, totp_url: totpUrl(secret, signed.user.email) } });
      });

      /** `POST account/authenticators/totp` `{code}`: activates TOTP with a first code from the app. Sensitive. */
      scope.post(`${prefix}/account/authenticators/totp`, async (request, reply) => {
        const signed = await signedIn(request, reply);
        if (!signed) return reply;
        const input = readBody(codeInput, request, reply);
        if (!input) return reply;
        if (!(await recent(reply, signed))) return reply;
        const totp = await storage.authenticators.totp(signed.user.id);
        if (active(totp)) return reply.status(409).send({ status: 409 });
        const at = now();
        const step = totp ? totpStep((totp.data as TotpData).secret, input.code, at) : undefined;
        if (!totp || step === undefined || !(await storage.authenticators.activateTotp(totp.id, step, at))) {
          return reply
            .status(400)
            .send(errorsBody([{ message: 'Incorrect code.', code: 'incorrect_code', param: 'code' }]));
        }
        const activated = (await storage.authenticators.totp(signed.user.id)) ?? totp;
        return { status: 200, data: totpBody(activated) };
      });

      /** `DELETE account/authenticators/totp`: two-factor off (the recovery codes go too). Sensitive. */
      scope.delete(`${prefix}/account/authenticators/totp`, async (request, reply) => {
        const signed = await signedIn(request, reply);
        if (!signed) return reply;
        if (!(await recent(reply, signed))) return reply;
        await storage.authenticators.removeAll(signed.user.id);
        return { status: 200 };
      });

      /** `GET account/authenticators/recovery-codes`: how many are left (the codes are shown only when made). */
      scope.get(`${prefix}/account/authenticators/recovery-codes`, async (request, reply) => {
        const signed = await signedIn(request, reply);
        if (!signed) return reply;
        if (!(await recent(reply, signed))) return reply;
        const codes = await storage.authenticators.recoveryCodes(signed.user.id);
        if (!codes) return reply.status(404).send({ status: 404 });
        return { status: 200, data: recoveryCodesBody(codes) };
      });

      /** `POST account/authenticators/recovery-codes`: ten new codes, shown this once; the old ones stop. */
      scope.post(`${prefix}/account/authenticators/recovery-codes`, async (request, reply) => {
        const signed = await signedIn(request, reply);
        if (!signed) return reply;
        if (!(await recent(reply, signed))) return reply;
        if (!active(await storage.authenticators.totp(signed.user.id))) {
          return reply.status(400).send(
            errorsBody([
              {
                message:
                  'You cannot generate recovery codes without having two-factor authentication enabled.',
                code: 'cannot_generate_recovery_codes',
              },
            ]),
          );
        }
        const codes = newRecoveryCodes();
        const stored = await storage.authenticators.setRecoveryCodes(
          signed.user.id,
          codes.map(recoveryCodeHash),
          now(),
        );
        return { status: 200, data: recoveryCodesBody(stored, codes) };
      });

      /**
       * `POST auth/2fa/authenticate` `{code}`: the second step of a sign-in whose password was right (the session
       * is pending `mfa_authenticate`): a TOTP code or a recovery code signs it in, with a new token.
       */
      scope.post(`${prefix}/auth/2fa/authenticate`, async (request, reply) => {
        const credentials = readCredentials(request, client);
        const lookup = await sessions.lookup(credentials);
        if (lookup.kind !== 'live' || lookup.session.pendingFlow !== 'mfa_authenticate' || !lookup.user) {
          return reply
            .status(401)
            .send(unauthenticatedBody(lookup.kind === 'live' ? lookup.session : undefined, providers));
        }
        const input = readBody(codeInput, request, reply);
        if (!input) return reply;
        const kind = await checkCode(reply, lookup.user, input.code);
        if (!kind) return reply;
        const user = (await storage.users.update(lookup.user.id, { lastLoginAt: now() })) ?? lookup.user;
        const issued = await sessions.issue(
          credentials,
          { user, authenticated: true, method: 'password' },
          lookup.session,
        );
        if (client === 'browser') setSessionCookie(reply, issued.token, config);
        return withMfa(user, issued.session, kind, issued.token);
      });

      /** `POST auth/2fa/reauthenticate` `{code}`: a code again, so sensitive actions may follow for 5 minutes. */
      scope.post(`${prefix}/auth/2fa/reauthenticate`, async (request, reply) => {
        const signed = await signedIn(request, reply);
        if (!signed) return reply;
        const input = readBody(codeInput, request, reply);
        if (!input) return reply;
        const kind = await checkCode(reply, signed.user, input.code);
        if (!kind) return reply;
        const session =
          (await storage.sessions.update(signed.session.id, { methodAt: now() })) ?? signed.session;
        return withMfa(signed.user, session, kind);
      });
    });
  }
}
