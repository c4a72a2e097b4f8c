import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AccountMailer } from '../auth/account-mailer.js';
import { displayName } from '../auth/allauth-responses.js';
import { CSRF_COOKIE } from '../auth/request-credentials.js';
import { requireUser } from '../auth/require-user.js';
import type { SessionService } from '../auth/session-service.js';
import type { ServerConfig } from '../config/config.js';
import { parseInput } from '../http/http-error.js';
import { withinRateLimits } from '../http/rate-limited.js';
import type { Storage } from '../storage/storage.js';
import { emailKeyOf, type UserRecord } from '../storage/user-repository.js';

const MINUTE = 60_000;
export const RESEND_RATE_LIMITS = {
  perIp: { limit: 10, windowMs: MINUTE },
  perAddress: { limit: 1, windowMs: MINUTE },
} as const;
/** How many addresses an account may list besides its primary one (allauth's ACCOUNT_MAX_EMAIL_ADDRESSES). */
export const MAX_OTHER_EMAIL_ADDRESSES = 10;
/** Changes of address the profile may ask for: per account, and per address asked for (whoever asks). */
export const EMAIL_CHANGE_RATE_LIMITS = {
  perAccount: { limit: 5, windowMs: 60 * MINUTE },
  perAddress: { limit: 3, windowMs: 60 * MINUTE },
} as const;

// Control characters would corrupt storage or display; everything else a person may type is kept as typed.
const CONTROL = /[\p{Cc}\p{Cs}]/u;
const personName = (label: string) =>
  z
    .string()
    .max(150, `${label} must be at most 150 characters`)
    .refine((value) => !CONTROL.test(value), `${label} must not contain control characters`)
    // Stored as sent, so leading or trailing spaces (U+FEFF included) would be invisible surprises.
    .refine((value) => value === value.trim(), `${label} must not start or end with spaces`);

const TIME_ZONES = new Set(Intl.supportedValuesOf('timeZone'));
TIME_ZONES.add('UTC');

/** The editable profile (spec 000 §3). Names are stored exactly as sent; no trimming behind the user's back. */
const profileFields = {
  first_name: personName('First name'),
  last_name: personName('Last name'),
  email: z.email('Enter a valid email address.').max(254, 'Enter a valid email address.'),
  language: z
    .string()
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$/, 'Use a language tag such as en or pt-BR.')
    .nullable(),
  timezone: z
    .string()
    .max(64)
    .refine((zone) => TIME_ZONES.has(zone), 'Use a time zone name such as Europe/Berlin.')
    .nullable(),
};
const putProfile = z.object({
  ...profileFields,
  language: profileFields.language.optional(),
  timezone: profileFields.timezone.optional(),
});
const patchProfile = z.object(profileFields).partial();
const resendInput = z.object({
  email: z.string().trim().max(254).pipe(z.email('Enter a valid email address.')),
});

function profile(user: UserRecord) {
  return {
    id: user.id,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    language: user.language,
    timezone: user.timezone,
    avatar_url: user.avatarUrl,
    get_display_name: displayName(user),
    has_verified_email: user.emailVerified,
  };
}

/** `/api/v1/apps/csrf/`, `/api/v1/users/resend-verification/` and `/api/v1/app/me/`. */
export function accountRoutes(
  app: FastifyInstance,
  deps: {
    config: ServerConfig;
    storage: Storage;
    sessions: SessionService;
    accountMailer: AccountMailer;
    now: () => Date;
  },
): void {
  const { config, storage, sessions, accountMailer, now } = deps;

  app.get('/api/v1/apps/csrf/', async (request, reply) => {
    const existing = request.cookies[CSRF_COOKIE];
    const token =
      existing && /^[A-Za-z0-9_-]{32,128}$/.test(existing) ? existing : randomBytes(32).toString('base64url');
    // Readable by scripts on purpose: the page copies it into X-CSRFToken (double-submit).
    void reply.setCookie(CSRF_COOKIE, token, {
      path: '/',
      sameSite: 'lax',
      secure: config.sessions.secureCookies,
      maxAge: 365 * 24 * 60 * 60,
    });
    return { csrftoken: token };
  });

  app.post('/api/v1/users/resend-verification/', async (request, reply) => {
    const byIp = await storage.rateLimits.hit(`resend:ip:${request.ip}`, RESEND_RATE_LIMITS.perIp, now());
    if (!byIp.allowed) {
      return reply.status(429).header('retry-after', String(byIp.retryAfterSeconds)).send({
        detail: 'Too many requests. Please wait a minute and try again.',
        code: 'rate_limited',
      });
    }
    const { email } = parseInput(resendInput, request.body);
    const byAddress = await storage.rateLimits.hit(
      `resend:email:${emailKeyOf(email)}`,
      RESEND_RATE_LIMITS.perAddress,
      now(),
    );
    if (byAddress.allowed) {
      const user = await storage.users.findByEmail(email);
      if (user && !user.emailVerified) await accountMailer.sendVerification(user, user.email);
    }
    // The same answer whatever happened, so it tells nobody whether the address has an account.
    return { detail: 'If this address needs verifying, a new link is on its way.' };
  });

  app.get('/api/v1/app/me/', async (request) => profile(await requireUser(request, sessions)));

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/api/v1/app/me/',
      handler: async (request, reply) => {
        const user = await requireUser(request, sessions);
        const input = parseInput(method === 'PUT' ? putProfile : patchProfile, request.body);
        const requested = input.email;
        // Another spelling of the account's own address is kept as typed (the same mailbox, still verified).
        const respells =
          requested !== undefined &&
          requested !== user.email &&
          emailKeyOf(requested) === emailKeyOf(user.email);
        const changesEmail = requested !== undefined && emailKeyOf(requested) !== emailKeyOf(user.email);
        if (
          changesEmail &&
          !(await withinRateLimits(
            storage,
            reply,
            [
              [`email-change:user:${user.id}`, EMAIL_CHANGE_RATE_LIMITS.perAccount],
              [`email-change:address:${emailKeyOf(requested)}`, EMAIL_CHANGE_RATE_LIMITS.perAddress],
            ],
            now(),
            'Too many e-mail address changes. Please wait and try again later.',
          ))
        ) {
          return reply;
        }
        const changes = {
          ...(input.first_name !== undefined ? { firstName: input.first_name } : {}),
          ...(input.last_name !== undefined ? { lastName: input.last_name } : {}),
          ...(input.language !== undefined ? { language: input.language } : {}),
          ...(input.timezone !== undefined ? { timezone: input.timezone } : {}),
          ...(respells ? { email: requested } : {}),
        };
        // A body naming no known field changes nothing (an empty UPDATE would be a 500).
        const updated =
          Object.keys(changes).length === 0 ? user : ((await storage.users.update(user.id, changes)) ?? user);
        if (changesEmail) {
          // The account keeps its address until the new one is confirmed. The answer is the same whether or
          // not another account has the address: its owner is told instead, and nobody gets a link.
          // Listed among the account's addresses (`account/email`), unverified, taken or not alike (while the
          // list has room; the link works either way).
          const listed = await storage.emailAddresses.listForUser(user.id);
          if (listed.length < MAX_OTHER_EMAIL_ADDRESSES) {
            await storage.emailAddresses.add({
              userId: user.id,
              email: requested,
              verified: false,
              createdAt: now(),
            });
          }
          const holder = await storage.users.findByEmail(requested);
          if (holder) await accountMailer.sendEmailInUse(holder.email);
          else await accountMailer.sendEmailChangeVerification(updated, requested);
        }
        return { user: profile(updated), email_verification_sent: changesEmail };
      },
    });
  }
}
