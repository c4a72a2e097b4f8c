import type * as z from 'zod';
import type { ValidationIssue } from '../errors/issue-summary.js';
import {
  type AuthErrorItem,
  type Authenticator,
  type AuthFlow,
  type AuthMethod,
  type AuthSession,
  type AuthUser,
  authErrorSchema,
  authenticatedEnvelopeSchema,
  authenticatorsEnvelopeSchema,
  type EmailAddress,
  emailAddressesEnvelopeSchema,
  emailVerificationInfoEnvelopeSchema,
  errorsEnvelopeSchema,
  okEnvelopeSchema,
  type PersonalToken,
  passwordResetInfoEnvelopeSchema,
  reauthenticationEnvelopeSchema,
  recoveryCodesEnvelopeSchema,
  sessionsEnvelopeSchema,
  tokenCreatedEnvelopeSchema,
  tokensEnvelopeSchema,
  totpEnvelopeSchema,
  unauthenticatedEnvelopeSchema,
} from './auth-envelopes.js';

/** An input error as results carry it (the `param` has become the key it is filed under). */
export interface AuthIssue {
  code: string;
  message: string;
}

/** 200: signed in. `sessionToken` is there when the server issued a new one (and it has been stored). */
export interface AuthenticatedResult {
  kind: 'authenticated';
  user: AuthUser;
  methods: AuthMethod[];
  sessionToken?: string;
}

/** 401 with a pending `verify_email` flow: the user must open the link in the e-mail first. */
export interface PendingResult {
  kind: 'pending';
  /**
   * `verify_email`: the address must be confirmed by its e-mailed link first. `mfa_authenticate`: the password was
   * right; a two-factor code comes next (`mfaAuthenticate`).
   */
  flow: 'verify_email' | 'mfa_authenticate';
  /** The pending session's token (after sign-up or a login with an unverified address); stored too. */
  sessionToken?: string;
}

/** 401: not signed in (after sign-out, a reset, or a verification that did not sign in). */
export interface UnauthenticatedResult {
  kind: 'unauthenticated';
  /** What the client may do next: `login`, `signup`, `provider_redirect` (with its providers). */
  flows: AuthFlow[];
  /** Reported but never stored: an unauthenticated session's token signs nobody in. */
  sessionToken?: string;
}

/** 400: the input was refused; field errors by `param`, the rest (no `param`) in `formErrors`. */
export interface InvalidResult {
  kind: 'invalid';
  fieldErrors: Record<string, AuthIssue[]>;
  formErrors: AuthIssue[];
}

/** 429: too many attempts; `retryAfterSeconds` from `Retry-After` when it is a number of seconds. */
export interface RateLimitedResult {
  kind: 'rate_limited';
  retryAfterSeconds?: number;
}

/** 409: not possible in this state (signing in or up while already signed in). */
export interface ConflictResult {
  kind: 'conflict';
}

/** 410: the session token sent is unknown or expired; it has been cleared from the store. */
export interface SessionGoneResult {
  kind: 'session_gone';
}

/** 403: refused (CSRF or Origin check of the browser client, sign-up closed). */
export interface ForbiddenResult {
  kind: 'forbidden';
  /** The server's reasons when it gave any. */
  errors: AuthIssue[];
}

/** 200 with nothing more to say (a password-reset request, known address or not). */
export interface OkResult {
  kind: 'ok';
}

/** 200 to `GET auth/email/verify`: the key is good. */
export interface EmailVerificationInfoResult {
  kind: 'valid_key';
  /** The address the key verifies. */
  email: string;
  user: AuthUser;
  /** Whether verifying signs this session in (it is the session that signed up). */
  isAuthenticating: boolean;
}

/** 200 to `GET auth/password/reset`: the key is good and belongs to `user`. */
export interface PasswordResetInfoResult {
  kind: 'valid_key';
  user: AuthUser;
}

/** 200 to `GET`/`DELETE auth/sessions`: the account's signed-in sessions. */
export interface SessionsResult {
  kind: 'sessions';
  sessions: AuthSession[];
}

/** 200 to `GET account/tokens`: the account's personal access tokens. */
export interface TokensResult {
  kind: 'tokens';
  tokens: PersonalToken[];
}

/** 200 to `GET`/`POST`/`PATCH`/`DELETE account/email`: the account's addresses, the primary first. */
export interface EmailAddressesResult {
  kind: 'email_addresses';
  addresses: EmailAddress[];
}

/** 200 to `POST account/tokens`: the new token, shown this once. */
export interface TokenCreatedResult {
  kind: 'token_created';
  /** The secret itself (`pwt_…`): keep it now, it is never answered again. */
  token: string;
  personalToken: PersonalToken;
}

/**
 * 401 while signed in: the action is sensitive and the last sign-in is over 5 minutes old. `flows` has
 * `reauthenticate` when the account has a password (call `reauthenticate`, then try again); without one, sign in
 * again.
 */
export interface ReauthenticationRequiredResult {
  kind: 'reauthentication_required';
  flows: AuthFlow[];
  user: AuthUser;
}

/** 200 to `GET account/authenticators`: the account's second factors. */
export interface AuthenticatorsResult {
  kind: 'authenticators';
  authenticators: Authenticator[];
}

/** TOTP is on (`GET`/`POST account/authenticators/totp`). */
export interface TotpActiveResult {
  kind: 'totp_active';
  totp: Authenticator;
}

/** TOTP is off: the secret and its `otpauth://` URL (for a QR code) to set an app up with. */
export interface TotpOfferedResult {
  kind: 'totp_offered';
  secret: string;
  totpUrl: string;
}

/** The recovery codes' counts; `unusedCodes` holds the codes only when they were just made (shown once). */
export interface RecoveryCodesResult {
  kind: 'recovery_codes';
  totalCodeCount: number;
  unusedCodeCount: number;
  unusedCodes: string[];
}

/** Every outcome of an allauth call. Each call's own result type is the subset it can answer. */
export type AuthResult =
  | AuthenticatorsResult
  | TotpActiveResult
  | TotpOfferedResult
  | RecoveryCodesResult
  | SessionsResult
  | TokensResult
  | TokenCreatedResult
  | EmailAddressesResult
  | ReauthenticationRequiredResult
  | AuthenticatedResult
  | PendingResult
  | UnauthenticatedResult
  | InvalidResult
  | RateLimitedResult
  | ConflictResult
  | SessionGoneResult
  | ForbiddenResult
  | OkResult
  | EmailVerificationInfoResult
  | PasswordResetInfoResult;

/** The `kind` of an {@link AuthResult}. */
export type AuthResultKind = AuthResult['kind'];

/** Outcomes any allauth call may have besides its own (A6). */
export type InterruptedResult = RateLimitedResult | ForbiddenResult | SessionGoneResult;

/** `auth/login`. */
export type LoginResult =
  | AuthenticatedResult
  | PendingResult
  | InvalidResult
  | ConflictResult
  | InterruptedResult;
/** `auth/signup`: `pending` is the normal success (verification is mandatory). */
export type SignupResult =
  | PendingResult
  | AuthenticatedResult
  | InvalidResult
  | ConflictResult
  | InterruptedResult;
/** `GET auth/session`. */
export type SessionResult = AuthenticatedResult | PendingResult | UnauthenticatedResult | InterruptedResult;
/** `DELETE auth/session`: `unauthenticated` is the normal success. */
export type LogoutResult = UnauthenticatedResult | InterruptedResult;
/** `GET auth/email/verify`. */
export type EmailVerificationInfoCheck = EmailVerificationInfoResult | InvalidResult | InterruptedResult;
/** `POST auth/email/verify`: `authenticated` when this session was waiting for it, else `unauthenticated`. */
export type VerifyEmailResult =
  | AuthenticatedResult
  | UnauthenticatedResult
  | InvalidResult
  | InterruptedResult;
/** `POST auth/password/request`. */
export type PasswordResetRequestResult = OkResult | InvalidResult | InterruptedResult;
/** `GET auth/password/reset`. */
export type PasswordResetInfoCheck = PasswordResetInfoResult | InvalidResult | InterruptedResult;
/** `POST auth/password/reset`: `unauthenticated` is the normal success (sign in with the new password). */
export type ResetPasswordResult =
  | UnauthenticatedResult
  | AuthenticatedResult
  | InvalidResult
  | InterruptedResult;

/** `GET auth/sessions`. */
export type SessionsListResult = SessionsResult | UnauthenticatedResult | InterruptedResult;
/** `DELETE auth/sessions`: `unauthenticated` when this session was among those ended (the token is cleared). */
export type EndSessionsResult = SessionsResult | UnauthenticatedResult | InvalidResult | InterruptedResult;
/** `POST auth/reauthenticate`. */
export type ReauthenticateResult =
  | AuthenticatedResult
  | InvalidResult
  | UnauthenticatedResult
  | InterruptedResult;
/** `POST account/password/change`. */
export type ChangePasswordResult =
  | AuthenticatedResult
  | InvalidResult
  | ReauthenticationRequiredResult
  | UnauthenticatedResult
  | InterruptedResult;
/** `GET account/tokens`. */
export type TokensListResult = TokensResult | UnauthenticatedResult | InterruptedResult;
/** `POST account/tokens`. */
export type CreateTokenResult =
  | TokenCreatedResult
  | InvalidResult
  | ReauthenticationRequiredResult
  | UnauthenticatedResult
  | InterruptedResult;
/** `DELETE account/tokens/{id}`. */
export type RevokeTokenResult = OkResult | UnauthenticatedResult | InterruptedResult;

/** `GET account/email`. */
export type EmailAddressesListResult = EmailAddressesResult | UnauthenticatedResult | InterruptedResult;
/**
 * `POST account/email`: the list with the new address, unverified. The same answer whether or not another
 * account signs in with it. `invalid` (on `email`): already listed, or too many; `rate_limited` when too many
 * links were sent.
 */
export type AddEmailResult =
  | EmailAddressesResult
  | InvalidResult
  | ReauthenticationRequiredResult
  | UnauthenticatedResult
  | InterruptedResult;
/** `PATCH account/email`: the list with this verified address primary. `invalid`: not listed, or unverified. */
export type MakePrimaryEmailResult =
  | EmailAddressesResult
  | InvalidResult
  | ReauthenticationRequiredResult
  | UnauthenticatedResult
  | InterruptedResult;
/** `PUT account/email`: a new link went out. `invalid`: not listed, or verified already. */
export type ResendEmailVerificationResult =
  | OkResult
  | InvalidResult
  | UnauthenticatedResult
  | InterruptedResult;
/** `DELETE account/email`: the list without it. `invalid`: the primary, the last verified, or not listed. */
export type RemoveEmailResult =
  | EmailAddressesResult
  | InvalidResult
  | UnauthenticatedResult
  | InterruptedResult;

/** `GET account/authenticators`. */
export type AuthenticatorsListResult = AuthenticatorsResult | UnauthenticatedResult | InterruptedResult;
/** `GET account/authenticators/totp`. */
export type TotpStatusResult =
  | TotpActiveResult
  | TotpOfferedResult
  | UnauthenticatedResult
  | InterruptedResult;
/** `POST account/authenticators/totp`. */
export type ActivateTotpResult =
  | TotpActiveResult
  | InvalidResult
  | ReauthenticationRequiredResult
  | ConflictResult
  | UnauthenticatedResult
  | InterruptedResult;
/** `DELETE account/authenticators/totp`. */
export type DeactivateTotpResult =
  | OkResult
  | ReauthenticationRequiredResult
  | UnauthenticatedResult
  | InterruptedResult;
/** `GET`/`POST account/authenticators/recovery-codes`. */
export type RecoveryCodesCallResult =
  | RecoveryCodesResult
  | InvalidResult
  | ReauthenticationRequiredResult
  | UnauthenticatedResult
  | InterruptedResult;
/** `POST auth/2fa/authenticate` and `auth/2fa/reauthenticate`. */
export type MfaResult = AuthenticatedResult | InvalidResult | UnauthenticatedResult | InterruptedResult;

/** @internal Which 200 body a call expects. */
export type SuccessShape =
  | 'authenticators'
  | 'totp'
  | 'recovery_codes'
  | 'authenticated'
  | 'ok'
  | 'email_verification_info'
  | 'password_reset_info'
  | 'sessions'
  | 'tokens'
  | 'token_created'
  | 'email_addresses';

/** @internal What an answer means, or why it could not be read. */
export type Interpretation =
  | { outcome: 'result'; result: AuthResult }
  | { outcome: 'malformed'; issues: ValidationIssue[] };

/** @internal The statuses allauth answers with (A6); any other is an ordinary `ApiError`. */
export const ALLAUTH_STATUSES: ReadonlySet<number> = new Set([200, 400, 401, 403, 409, 410, 429]);

/** `Retry-After` as delta-seconds; an HTTP-date (which our server never sends) is left out. */
function retryAfterSeconds(header: string | null): number | undefined {
  const value = header?.trim() ?? '';
  return /^\d{1,9}$/.test(value) ? Number(value) : undefined;
}

function toIssue({ code, message }: AuthErrorItem): AuthIssue {
  return { code, message };
}

function withToken<T extends object>(result: T, token: string | undefined): T & { sessionToken?: string } {
  return token === undefined ? result : { ...result, sessionToken: token };
}

const successSchemas = {
  authenticated: authenticatedEnvelopeSchema,
  ok: okEnvelopeSchema,
  email_verification_info: emailVerificationInfoEnvelopeSchema,
  password_reset_info: passwordResetInfoEnvelopeSchema,
} as const;

function parse<S extends z.ZodType>(
  schema: S,
  body: unknown,
  build: (value: z.output<S>) => AuthResult,
): Interpretation {
  const parsed = schema.safeParse(body);
  return parsed.success
    ? { outcome: 'result', result: build(parsed.data) }
    : { outcome: 'malformed', issues: parsed.error.issues };
}

function successResult(shape: SuccessShape, body: unknown): Interpretation {
  switch (shape) {
    case 'authenticated':
      return parse(successSchemas.authenticated, body, ({ data, meta }) =>
        withToken({ kind: 'authenticated', user: data.user, methods: data.methods }, meta.session_token),
      );
    case 'ok':
      return parse(successSchemas.ok, body, () => ({ kind: 'ok' }));
    case 'email_verification_info':
      return parse(successSchemas.email_verification_info, body, ({ data, meta }) => ({
        kind: 'valid_key',
        email: data.email,
        user: data.user,
        isAuthenticating: meta.is_authenticating,
      }));
    case 'password_reset_info':
      return parse(successSchemas.password_reset_info, body, ({ data }) => ({
        kind: 'valid_key',
        user: data.user,
      }));
    case 'sessions':
      return parse(sessionsEnvelopeSchema, body, ({ data }) => ({ kind: 'sessions', sessions: data }));
    case 'authenticators':
      return parse(authenticatorsEnvelopeSchema, body, ({ data }) => ({
        kind: 'authenticators',
        authenticators: data,
      }));
    case 'totp':
      return parse(totpEnvelopeSchema, body, ({ data }) => ({ kind: 'totp_active', totp: data }));
    case 'recovery_codes':
      return parse(recoveryCodesEnvelopeSchema, body, ({ data }) => ({
        kind: 'recovery_codes',
        totalCodeCount: data.total_code_count,
        unusedCodeCount: data.unused_code_count,
        unusedCodes: data.unused_codes,
      }));
    case 'tokens':
      return parse(tokensEnvelopeSchema, body, ({ data }) => ({ kind: 'tokens', tokens: data }));
    case 'token_created':
      return parse(tokenCreatedEnvelopeSchema, body, ({ data, meta }) => ({
        kind: 'token_created',
        token: meta.token,
        personalToken: data,
      }));
    case 'email_addresses':
      return parse(emailAddressesEnvelopeSchema, body, ({ data }) => ({
        kind: 'email_addresses',
        addresses: data,
      }));
  }
}

const unauthenticated401 = unauthenticatedEnvelopeSchema(401);

/** A 401 that says the session is signed in: allauth's "reauthenticate first". */
function isSignedIn(body: unknown): boolean {
  const meta = typeof body === 'object' && body !== null ? (body as { meta?: unknown }).meta : undefined;
  return (
    typeof meta === 'object' &&
    meta !== null &&
    (meta as { is_authenticated?: unknown }).is_authenticated === true
  );
}
const sessionGone410 = unauthenticatedEnvelopeSchema(410);
const forbiddenErrors = authErrorSchema.array();

/** A 403 may come from a proxy or a CSRF middleware with any body: its reasons are read when they parse. */
function forbiddenReasons(body: unknown): AuthIssue[] {
  if (typeof body !== 'object' || body === null) return [];
  const parsed = forbiddenErrors.safeParse((body as { errors?: unknown }).errors);
  return parsed.success ? parsed.data.map(toIssue) : [];
}

/**
 * @internal Turns one allauth answer into its result (rule A6 of `src/auth/SPEC.md`). 200, 400, 401 and 410
 * bodies must match their envelope; 403, 409 and 429 are understood from the status alone.
 */
export function interpretAuthAnswer(
  status: number,
  body: unknown,
  retryAfter: string | null,
  success: SuccessShape,
): Interpretation {
  switch (status) {
    case 200:
      return successResult(success, body);
    case 400:
      return parse(errorsEnvelopeSchema, body, ({ errors }) => {
        const fieldErrors: Record<string, AuthIssue[]> = {};
        const formErrors: AuthIssue[] = [];
        for (const error of errors) {
          if (error.param === undefined) formErrors.push(toIssue(error));
          else {
            fieldErrors[error.param] ??= [];
            fieldErrors[error.param]?.push(toIssue(error));
          }
        }
        return { kind: 'invalid', fieldErrors, formErrors };
      });
    case 401:
      if (isSignedIn(body)) {
        return parse(reauthenticationEnvelopeSchema, body, ({ data }) => ({
          kind: 'reauthentication_required',
          flows: data.flows,
          user: data.user,
        }));
      }
      return parse(unauthenticated401, body, ({ data, meta }) => {
        const pending = data.flows.find(
          (flow): flow is typeof flow & { id: PendingResult['flow'] } =>
            (flow.id === 'verify_email' || flow.id === 'mfa_authenticate') && flow.is_pending === true,
        );
        return pending
          ? withToken({ kind: 'pending', flow: pending.id }, meta.session_token)
          : withToken({ kind: 'unauthenticated', flows: data.flows }, meta.session_token);
      });
    case 403:
      return { outcome: 'result', result: { kind: 'forbidden', errors: forbiddenReasons(body) } };
    case 409:
      return { outcome: 'result', result: { kind: 'conflict' } };
    case 410:
      return parse(sessionGone410, body, () => ({ kind: 'session_gone' }));
    case 429: {
      const seconds = retryAfterSeconds(retryAfter);
      return {
        outcome: 'result',
        result:
          seconds === undefined
            ? { kind: 'rate_limited' }
            : { kind: 'rate_limited', retryAfterSeconds: seconds },
      };
    }
    default:
      return {
        outcome: 'malformed',
        issues: [{ code: 'custom', path: [], message: `${status} is not an allauth status`, input: body }],
      };
  }
}
