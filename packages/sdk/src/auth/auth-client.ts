import * as z from 'zod';
import {
  type CurrentUser,
  currentUserSchema,
  type ProfileUpdate,
  type ProfileUpdateResult,
  profileUpdateResultSchema,
} from '../account/current-user.js';
import { ApiError } from '../errors/api-error.js';
import { InvalidInputError } from '../errors/invalid-input-error.js';
import { ResponseValidationError } from '../errors/response-validation-error.js';
import type { HttpClient, HttpMethod } from '../http/http-client.js';
import { buildRequestUrl } from '../http/request-url.js';
import { readErrorBody, readResponseBody } from '../http/response-body.js';
import type { RequestTarget } from '../http/transport-error.js';
import type { CallOptions } from '../resources/call-options.js';
import {
  type AuthConfig,
  type AuthUser,
  configEnvelopeSchema,
  csrfAnswerSchema,
  totpOfferEnvelopeSchema,
} from './auth-envelopes.js';
import {
  type ActivateTotpResult,
  type AddEmailResult,
  ALLAUTH_STATUSES,
  type AuthenticatorsListResult,
  type AuthResult,
  type ChangePasswordResult,
  type CreateTokenResult,
  type DeactivateTotpResult,
  type EmailAddressesListResult,
  type EmailVerificationInfoCheck,
  type EndSessionsResult,
  interpretAuthAnswer,
  type LoginResult,
  type LogoutResult,
  type MakePrimaryEmailResult,
  type MfaResult,
  type PasswordResetInfoCheck,
  type PasswordResetRequestResult,
  type ReauthenticateResult,
  type RecoveryCodesCallResult,
  type RemoveEmailResult,
  type ResendEmailVerificationResult,
  type ResetPasswordResult,
  type RevokeTokenResult,
  type SessionResult,
  type SessionsListResult,
  type SignupResult,
  type SuccessShape,
  type TokensListResult,
  type TotpStatusResult,
  type VerifyEmailResult,
} from './auth-result.js';
import { csrfTokenFromDocumentCookie } from './csrf-cookie.js';
import { emailAddressInputSchema } from './email-address-rules.js';
import { type PersonalTokenInput, personalTokenInputSchema } from './personal-token-rules.js';
import type { SessionInfo, TokenStore } from './token-store.js';

/**
 * Which allauth client to speak: `app` (the session token travels as `X-Session-Token`; the CLI and
 * scripts) or `browser` (the session is the `sessionid` cookie, unsafe calls carry `X-CSRFToken`; the web).
 */
export type AuthClientKind = 'app' | 'browser';

/** Options for {@link createAuthClient}. */
export interface AuthClientOptions {
  /** The request helper every call goes through (its base URL, fetch and headers apply). */
  http: HttpClient;
  /**
   * Where session tokens are kept: pass the same store the request helper sends `X-Session-Token` from, so
   * a sign-in here signs in every product call.
   */
  tokenStore: TokenStore;
  /** Defaults to `app`. */
  client?: AuthClientKind;
  /**
   * The browser client's CSRF token, read before every unsafe call. Defaults to the page's `csrftoken`
   * cookie, read from `document.cookie` at call time.
   */
  getCsrfToken?: () => string | null | undefined;
}

/** `auth/login`. */
export interface LoginInput {
  email: string;
  password: string;
}

/** `auth/signup`; the honeypot `phone_number_x` is always sent empty by the SDK. */
export interface SignupInput {
  email: string;
  password: string;
  /** Must be `true`; `false` is sent as it is so the server answers `required` on `terms_agreement`. */
  terms_agreement: boolean;
  /** The captcha's token, when the site uses one. */
  turnstile_token?: string;
}

/** `auth/password/reset`. */
export interface ResetPasswordInput {
  /** The key from the e-mailed link `/account/password/reset/key/{key}`. */
  key: string;
  password: string;
}

/** What {@link AuthClient.providerRedirectForm} needs. */
export interface ProviderRedirectInput {
  /** The provider id from the config, e.g. `google`. */
  provider: string;
  /** Where the server sends the browser back to once the provider is done (the `next` of spec 000 §7). */
  callbackUrl: string;
  /** `login` (default) signs in or up; `connect` links the provider to the signed-in account. */
  process?: 'login' | 'connect';
  /** Defaults to the browser client's CSRF token (cookie, else the last {@link AuthClient.fetchCsrf}). */
  csrfToken?: string;
  /**
   * `accounts` (default): spec 000's `POST /accounts/{provider}/login/` with `csrfmiddlewaretoken`, `process`,
   * `next`. `headless`: allauth's `POST /_allauth/browser/v1/auth/provider/redirect` with `provider`,
   * `callback_url`, `process`, `csrfmiddlewaretoken`.
   */
  endpoint?: 'accounts' | 'headless';
}

/** A form for the page to submit (a real top-level POST: the answer is a redirect to the provider). */
export interface ProviderRedirectForm {
  method: 'POST';
  /** The form's `action`. */
  action: string;
  /** Hidden inputs, name → value. */
  fields: Record<string, string>;
}

/**
 * Every call of spec 000 §7 "Authentication calls", plus the current-user calls, as typed results that say
 * what to do next. Rules A1–A14 in `src/auth/SPEC.md`.
 */
export interface AuthClient {
  /** Which allauth client this speaks. */
  readonly client: AuthClientKind;
  /** `GET config`: whether sign-up is open and which providers are configured. */
  config(options?: CallOptions): Promise<AuthConfig>;
  /** `POST auth/login`. A new session token is stored with the user's e-mail, name and avatar. */
  login(input: LoginInput, options?: CallOptions): Promise<LoginResult>;
  /** `POST auth/signup`. Success is `pending` (verify the e-mail); its token is stored with the e-mail typed. */
  signup(input: SignupInput, options?: CallOptions): Promise<SignupResult>;
  /** `GET auth/session`: who is signed in. `session_gone` has cleared the stored token. */
  session(options?: CallOptions): Promise<SessionResult>;
  /** `DELETE auth/session`. The token store is cleared whatever happens, even when the call throws. */
  logout(options?: CallOptions): Promise<LogoutResult>;
  /** `GET auth/email/verify` with `X-Email-Verification-Key`: is this key good, for which address? */
  getEmailVerification(key: string, options?: CallOptions): Promise<EmailVerificationInfoCheck>;
  /** `POST auth/email/verify {key}`: `authenticated` when it completes this session's sign-up. */
  verifyEmail(key: string, options?: CallOptions): Promise<VerifyEmailResult>;
  /** `POST auth/password/request {email}`: `ok` whether or not the address has an account. */
  requestPasswordReset(email: string, options?: CallOptions): Promise<PasswordResetRequestResult>;
  /** `GET auth/password/reset` with `X-Password-Reset-Key`: is this key good? */
  getPasswordReset(key: string, options?: CallOptions): Promise<PasswordResetInfoCheck>;
  /** `POST auth/password/reset {key, password}`: `unauthenticated` on success (sign in with the new password). */
  resetPassword(input: ResetPasswordInput, options?: CallOptions): Promise<ResetPasswordResult>;
  /** `GET /api/v1/apps/csrf/` (with credentials): sets the `csrftoken` cookie and resolves to its value. */
  fetchCsrf(options?: CallOptions): Promise<string>;
  /**
   * The form that starts a third-party sign-in; the page submits it (the SDK has no DOM). Throws
   * {@link InvalidInputError} when there is no CSRF token: call {@link AuthClient.fetchCsrf} first.
   */
  providerRedirectForm(input: ProviderRedirectInput): ProviderRedirectForm;
  /**
   * `POST /api/v1/users/resend-verification/ {email}` through the request helper (so a 401/403 is an
   * `AuthRequiredError` as everywhere in `/api/v1/`). Resolves on any 2xx.
   */
  resendVerification(email: string, options?: CallOptions): Promise<void>;
  /** `GET auth/sessions`: the account's signed-in sessions, this one marked `is_current`. */
  sessions(options?: CallOptions): Promise<SessionsListResult>;
  /** `DELETE auth/sessions`: ends those sessions (by `id`); ending this one signs out here too (`unauthenticated`). */
  endSessions(ids: readonly number[], options?: CallOptions): Promise<EndSessionsResult>;
  /** `POST auth/reauthenticate`: the password again, so sensitive actions may follow for 5 minutes. */
  reauthenticate(password: string, options?: CallOptions): Promise<ReauthenticateResult>;
  /**
   * `POST account/password/change`: a new password; `currentPassword` is needed when the account has one. Every
   * other sign-in ends. Without a current password (an account made with Google) it needs a recent sign-in.
   */
  changePassword(
    input: { currentPassword?: string; newPassword: string },
    options?: CallOptions,
  ): Promise<ChangePasswordResult>;
  /** `GET account/tokens`: the account's personal access tokens (docs/auth.md), never the tokens themselves. */
  tokens(options?: CallOptions): Promise<TokensListResult>;
  /** `GET account/authenticators`: the account's second factors. */
  authenticators(options?: CallOptions): Promise<AuthenticatorsListResult>;
  /** `GET account/authenticators/totp`: on (`totp_active`), or off with the secret to set it up (`totp_offered`). */
  totp(options?: CallOptions): Promise<TotpStatusResult>;
  /** `POST account/authenticators/totp`: turns TOTP on with a first code from the app. Needs a recent sign-in. */
  activateTotp(code: string, options?: CallOptions): Promise<ActivateTotpResult>;
  /** `DELETE account/authenticators/totp`: two-factor off. Needs a recent sign-in. */
  deactivateTotp(options?: CallOptions): Promise<DeactivateTotpResult>;
  /** `POST account/authenticators/recovery-codes`: ten new recovery codes, shown this once. Needs a recent sign-in. */
  regenerateRecoveryCodes(options?: CallOptions): Promise<RecoveryCodesCallResult>;
  /** `POST auth/2fa/authenticate`: the code after a right password (`pending` `mfa_authenticate`); signs in. */
  mfaAuthenticate(code: string, options?: CallOptions): Promise<MfaResult>;
  /** `POST auth/2fa/reauthenticate`: a code instead of the password, before a sensitive action. */
  mfaReauthenticate(code: string, options?: CallOptions): Promise<MfaResult>;
  /** `POST account/tokens`: a new personal access token, answered this once. Needs a recent sign-in. */
  createToken(input: PersonalTokenInput, options?: CallOptions): Promise<CreateTokenResult>;
  /** `DELETE account/tokens/{id}`: revokes it at once. An id that is not the account's: `ApiError` 404. */
  revokeToken(id: number, options?: CallOptions): Promise<RevokeTokenResult>;
  /** `GET account/email`: the account's addresses, the primary (the one it signs in with) first. */
  emailAddresses(options?: CallOptions): Promise<EmailAddressesListResult>;
  /**
   * `POST account/email`: adds an address, unverified, and e-mails it a link. The answer is the same whether or
   * not another account signs in with it. Needs a recent sign-in. Throws {@link InvalidInputError} for something
   * that is not an address, before sending.
   */
  addEmail(email: string, options?: CallOptions): Promise<AddEmailResult>;
  /**
   * `PATCH account/email`: a verified address becomes the primary one, the one the account signs in with. Needs a
   * recent sign-in. Throws {@link InvalidInputError} for something that is not an address, before sending.
   */
  makePrimaryEmail(email: string, options?: CallOptions): Promise<MakePrimaryEmailResult>;
  /**
   * `PUT account/email`: e-mails a listed, unverified address its link again. Throws {@link InvalidInputError}
   * for something that is not an address, before sending.
   */
  resendEmailVerification(email: string, options?: CallOptions): Promise<ResendEmailVerificationResult>;
  /**
   * `DELETE account/email`: removes an address that is neither the primary nor the only verified one. Throws
   * {@link InvalidInputError} for something that is not an address, before sending.
   */
  removeEmail(email: string, options?: CallOptions): Promise<RemoveEmailResult>;
  /** `GET /api/v1/app/me/`: the profile; refreshes the stored e-mail, name and avatar. */
  me(options?: CallOptions): Promise<CurrentUser>;
  /** `PATCH /api/v1/app/me/`: saves profile fields; refreshes the stored e-mail, name and avatar. */
  updateMe(update: ProfileUpdate, options?: CallOptions): Promise<ProfileUpdateResult>;
}

/** The address an `account/email` call is about, trimmed; throws `InvalidInputError` for one it cannot be. */
function emailAddressInput(email: string): string {
  const parsed = emailAddressInputSchema.safeParse(email);
  if (!parsed.success) {
    throw new InvalidInputError({
      issues: parsed.error.issues,
      subject: 'e-mail address',
      cause: parsed.error,
    });
  }
  return parsed.data;
}

/** Outcomes every allauth call may have besides its own (rule A6). */
const INTERRUPTIONS = ['rate_limited', 'forbidden', 'session_gone'] as const;
const UNSAFE_METHODS: ReadonlySet<HttpMethod> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Statuses whose JSON body must be an allauth envelope; 403, 409 and 429 are read leniently. */
const ENVELOPE_STATUSES: ReadonlySet<number> = new Set([200, 400, 401, 410]);

interface CallSpec<R extends AuthResult> {
  body?: unknown;
  headers?: Record<string, string>;
  success: SuccessShape;
  kinds: readonly R['kind'][];
  /** The address the person typed, stored with a pending session's token (rule A9). */
  email?: string;
}

/** Stored as the user's name unless it is only allauth's fallback to the e-mail (spec 000 §2 initials). */
function nameFrom(display: string, email: string): string | null {
  const name = display.trim();
  return name === '' || name === email ? null : display;
}

function detailsOf(user: AuthUser): Omit<SessionInfo, 'token'> {
  return { email: user.email, name: nameFrom(user.display, user.email), avatarUrl: user.avatar_url };
}

function profileDetailsOf(user: CurrentUser): Omit<SessionInfo, 'token'> {
  return { email: user.email, name: nameFrom(user.get_display_name, user.email), avatarUrl: user.avatar_url };
}

const providerRedirectInputSchema = z.object({
  provider: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'Provider must be a provider id such as google'),
  callbackUrl: z.string().min(1, 'The callback URL is required'),
  process: z.enum(['login', 'connect']).default('login'),
  csrfToken: z.string({ error: 'No CSRF token: call fetchCsrf() first, or pass csrfToken' }).min(1),
  endpoint: z.enum(['accounts', 'headless']).default('accounts'),
});

/**
 * Creates the auth client.
 *
 * allauth answers "not signed in" (401), "forbidden" (403) and "session gone" (410) as ordinary protocol
 * outcomes, so its calls use the request helper's raw mode with `auth: false`: those answers become
 * results, they never run the helper's `AuthRequiredError` path, which would clear the token store on the
 * 401 that every successful sign-up answers.
 *
 * @example
 * const auth = createAuthClient({ http, tokenStore, client: 'browser' });
 * const result = await auth.login({ email, password });
 * if (result.kind === 'pending') showCheckYourEmail();
 */
export function createAuthClient(options: AuthClientOptions): AuthClient {
  const { http, tokenStore } = options;
  const kind: AuthClientKind = options.client ?? 'app';
  const browser = kind === 'browser';
  const getCsrfToken = options.getCsrfToken ?? csrfTokenFromDocumentCookie;
  let fetchedCsrf: string | null = null;

  /** The cookie wins (it is what the server compares with); the last fetched value covers unreadable cookies. */
  function knownCsrfToken(): string | null {
    const fromCookie = getCsrfToken();
    return typeof fromCookie === 'string' && fromCookie !== '' ? fromCookie : fetchedCsrf;
  }

  async function fetchCsrf(call: CallOptions = {}): Promise<string> {
    const { csrftoken } = await http.get('/api/v1/apps/csrf/', {
      auth: false,
      credentials: 'include',
      schema: csrfAnswerSchema,
      signal: call.signal,
    });
    fetchedCsrf = csrftoken;
    return csrftoken;
  }

  async function csrfHeader(call: CallOptions): Promise<Record<string, string>> {
    if (!browser) return {};
    return { 'X-CSRFToken': knownCsrfToken() ?? (await fetchCsrf(call)) };
  }

  /** Keeps the stored token and refreshes what the UI shows, unless the session changed meanwhile. */
  function refreshDetails(sentToken: string | null, details: Omit<SessionInfo, 'token'>): void {
    if (sentToken !== null && tokenStore.getToken() === sentToken) {
      tokenStore.setSession({ token: sentToken, ...details });
    }
  }

  function applyToStore(result: AuthResult, sentToken: string | null, email: string | undefined): void {
    if (result.kind === 'authenticated') {
      if (result.sessionToken === undefined) refreshDetails(sentToken, detailsOf(result.user));
      else tokenStore.setSession({ token: result.sessionToken, ...detailsOf(result.user) });
    } else if (result.kind === 'pending' && result.sessionToken !== undefined) {
      tokenStore.setSession({ token: result.sessionToken, email: email ?? null });
    } else if (result.kind === 'session_gone') {
      tokenStore.clear();
    }
  }

  async function call<R extends AuthResult>(
    method: HttpMethod,
    endpoint: string,
    spec: CallSpec<R>,
    callOptions: CallOptions = {},
  ): Promise<R> {
    const path = `/_allauth/${kind}/v1/${endpoint}`;
    const url = buildRequestUrl(http.baseUrl, path);
    const target: RequestTarget = { method, path, url, signal: callOptions.signal };
    const sentToken = tokenStore.getToken();
    const headers: Record<string, string> = { ...spec.headers };
    if (!browser && sentToken !== null) headers['X-Session-Token'] = sentToken;
    if (UNSAFE_METHODS.has(method)) Object.assign(headers, await csrfHeader(callOptions));

    const response = await http.raw(method, path, {
      auth: false,
      headers,
      body: spec.body,
      signal: callOptions.signal,
      credentials: browser ? 'include' : undefined,
    });
    const { status } = response;

    // `GET account/authenticators/totp` answers 404 with the secret to set TOTP up with: an answer, not an error.
    if (status === 404 && spec.success === 'totp' && method === 'GET') {
      const offer = totpOfferEnvelopeSchema.safeParse((await readErrorBody(response, target)).data);
      if (offer.success) {
        return {
          kind: 'totp_offered',
          secret: offer.data.meta.secret,
          totpUrl: offer.data.meta.totp_url,
        } as R;
      }
    }
    if (!ALLAUTH_STATUSES.has(status)) {
      const { text, data, cause } = await readErrorBody(response, target);
      throw new ApiError({ status, statusText: response.statusText, text, data, method, url, cause });
    }
    const body = ENVELOPE_STATUSES.has(status)
      ? await readResponseBody(response, target)
      : (await readErrorBody(response, target)).data;
    const interpretation = interpretAuthAnswer(
      status,
      body,
      response.headers.get('retry-after'),
      spec.success,
    );

    if (interpretation.outcome === 'malformed') {
      throw new ResponseValidationError({ issues: interpretation.issues, data: body, status, method, url });
    }
    const { result } = interpretation;
    if (!(spec.kinds as readonly string[]).includes(result.kind)) {
      throw new ResponseValidationError({
        message: `Unexpected response from ${method} ${url}: ${status} (${result.kind}) is not an answer to this call`,
        issues: [],
        data: body,
        status,
        method,
        url,
      });
    }
    applyToStore(result, sentToken, spec.email);
    return result as R;
  }

  return {
    client: kind,

    async config(callOptions = {}) {
      const { data } = await http.get(`/_allauth/${kind}/v1/config`, {
        auth: false,
        credentials: browser ? 'include' : undefined,
        schema: configEnvelopeSchema,
        signal: callOptions.signal,
      });
      return data;
    },

    login: ({ email, password }, callOptions) =>
      call<LoginResult>(
        'POST',
        'auth/login',
        {
          body: { email, password },
          success: 'authenticated',
          kinds: ['authenticated', 'pending', 'invalid', 'conflict', ...INTERRUPTIONS],
          email,
        },
        callOptions,
      ),

    signup: (input, callOptions) =>
      call<SignupResult>(
        'POST',
        'auth/signup',
        {
          body: {
            email: input.email,
            password: input.password,
            terms_agreement: input.terms_agreement,
            phone_number_x: '',
            ...(input.turnstile_token === undefined ? {} : { turnstile_token: input.turnstile_token }),
          },
          success: 'authenticated',
          kinds: ['pending', 'authenticated', 'invalid', 'conflict', ...INTERRUPTIONS],
          email: input.email,
        },
        callOptions,
      ),

    session: (callOptions) =>
      call<SessionResult>(
        'GET',
        'auth/session',
        {
          success: 'authenticated',
          kinds: ['authenticated', 'pending', 'unauthenticated', ...INTERRUPTIONS],
        },
        callOptions,
      ),

    async logout(callOptions) {
      try {
        return await call<LogoutResult>(
          'DELETE',
          'auth/session',
          { success: 'ok', kinds: ['unauthenticated', ...INTERRUPTIONS] },
          callOptions,
        );
      } finally {
        // Signing out locally must never depend on the server: a dead network still signs the user out here.
        tokenStore.clear();
      }
    },

    getEmailVerification: (key, callOptions) =>
      call<EmailVerificationInfoCheck>(
        'GET',
        'auth/email/verify',
        {
          headers: { 'X-Email-Verification-Key': key },
          success: 'email_verification_info',
          kinds: ['valid_key', 'invalid', ...INTERRUPTIONS],
        },
        callOptions,
      ),

    verifyEmail: (key, callOptions) =>
      call<VerifyEmailResult>(
        'POST',
        'auth/email/verify',
        {
          body: { key },
          success: 'authenticated',
          kinds: ['authenticated', 'unauthenticated', 'invalid', ...INTERRUPTIONS],
        },
        callOptions,
      ),

    requestPasswordReset: (email, callOptions) =>
      call<PasswordResetRequestResult>(
        'POST',
        'auth/password/request',
        { body: { email }, success: 'ok', kinds: ['ok', 'invalid', ...INTERRUPTIONS] },
        callOptions,
      ),

    getPasswordReset: (key, callOptions) =>
      call<PasswordResetInfoCheck>(
        'GET',
        'auth/password/reset',
        {
          headers: { 'X-Password-Reset-Key': key },
          success: 'password_reset_info',
          kinds: ['valid_key', 'invalid', ...INTERRUPTIONS],
        },
        callOptions,
      ),

    resetPassword: ({ key, password }, callOptions) =>
      call<ResetPasswordResult>(
        'POST',
        'auth/password/reset',
        {
          body: { key, password },
          success: 'authenticated',
          kinds: ['unauthenticated', 'authenticated', 'invalid', ...INTERRUPTIONS],
        },
        callOptions,
      ),

    fetchCsrf,

    providerRedirectForm(input): ProviderRedirectForm {
      const parsed = providerRedirectInputSchema.safeParse({
        ...input,
        csrfToken: input.csrfToken ?? knownCsrfToken() ?? undefined,
      });
      if (!parsed.success) {
        throw new InvalidInputError({
          issues: parsed.error.issues,
          subject: 'provider redirect',
          cause: parsed.error,
        });
      }
      const { provider, callbackUrl, process, csrfToken, endpoint } = parsed.data;
      if (endpoint === 'headless') {
        return {
          method: 'POST',
          action: buildRequestUrl(http.baseUrl, '/_allauth/browser/v1/auth/provider/redirect'),
          fields: { provider, callback_url: callbackUrl, process, csrfmiddlewaretoken: csrfToken },
        };
      }
      return {
        method: 'POST',
        action: buildRequestUrl(http.baseUrl, `/accounts/${provider}/login/`),
        fields: { csrfmiddlewaretoken: csrfToken, process, next: callbackUrl },
      };
    },

    async resendVerification(email, callOptions = {}) {
      await http.post(
        'users/resend-verification/',
        { email },
        { credentials: 'include', headers: await csrfHeader(callOptions), signal: callOptions.signal },
      );
    },

    sessions: (callOptions) =>
      call<SessionsListResult>(
        'GET',
        'auth/sessions',
        { success: 'sessions', kinds: ['sessions', 'unauthenticated', ...INTERRUPTIONS] },
        callOptions,
      ),

    async endSessions(ids, callOptions) {
      const result = await call<EndSessionsResult>(
        'DELETE',
        'auth/sessions',
        {
          body: { sessions: [...ids] },
          success: 'sessions',
          kinds: ['sessions', 'unauthenticated', 'invalid', ...INTERRUPTIONS],
        },
        callOptions,
      );
      // This session was among those ended: it signs nobody in any more.
      if (result.kind === 'unauthenticated') tokenStore.clear();
      return result;
    },

    reauthenticate: (password, callOptions) =>
      call<ReauthenticateResult>(
        'POST',
        'auth/reauthenticate',
        {
          body: { password },
          success: 'authenticated',
          kinds: ['authenticated', 'invalid', 'unauthenticated', ...INTERRUPTIONS],
        },
        callOptions,
      ),

    changePassword: ({ currentPassword, newPassword }, callOptions) =>
      call<ChangePasswordResult>(
        'POST',
        'account/password/change',
        {
          body: {
            ...(currentPassword === undefined ? {} : { current_password: currentPassword }),
            new_password: newPassword,
          },
          success: 'authenticated',
          kinds: [
            'authenticated',
            'invalid',
            'reauthentication_required',
            'unauthenticated',
            ...INTERRUPTIONS,
          ],
        },
        callOptions,
      ),

    tokens: (callOptions) =>
      call<TokensListResult>(
        'GET',
        'account/tokens',
        { success: 'tokens', kinds: ['tokens', 'unauthenticated', ...INTERRUPTIONS] },
        callOptions,
      ),

    createToken(input, callOptions) {
      const parsed = personalTokenInputSchema.safeParse(input);
      if (!parsed.success) {
        throw new InvalidInputError({ issues: parsed.error.issues, subject: 'token', cause: parsed.error });
      }
      return call<CreateTokenResult>(
        'POST',
        'account/tokens',
        {
          body: {
            name: parsed.data.name,
            ...(parsed.data.expiresInDays === undefined
              ? {}
              : { expires_in_days: parsed.data.expiresInDays }),
            ...(parsed.data.scope === undefined ? {} : { scope: parsed.data.scope }),
          },
          success: 'token_created',
          kinds: [
            'token_created',
            'invalid',
            'reauthentication_required',
            'unauthenticated',
            ...INTERRUPTIONS,
          ],
        },
        callOptions,
      );
    },

    authenticators: (callOptions) =>
      call<AuthenticatorsListResult>(
        'GET',
        'account/authenticators',
        { success: 'authenticators', kinds: ['authenticators', 'unauthenticated', ...INTERRUPTIONS] },
        callOptions,
      ),

    totp: (callOptions) =>
      call<TotpStatusResult>(
        'GET',
        'account/authenticators/totp',
        { success: 'totp', kinds: ['totp_active', 'unauthenticated', ...INTERRUPTIONS] },
        callOptions,
      ),

    activateTotp: (code, callOptions) =>
      call<ActivateTotpResult>(
        'POST',
        'account/authenticators/totp',
        {
          body: { code },
          success: 'totp',
          kinds: [
            'totp_active',
            'invalid',
            'reauthentication_required',
            'conflict',
            'unauthenticated',
            ...INTERRUPTIONS,
          ],
        },
        callOptions,
      ),

    deactivateTotp: (callOptions) =>
      call<DeactivateTotpResult>(
        'DELETE',
        'account/authenticators/totp',
        { success: 'ok', kinds: ['ok', 'reauthentication_required', 'unauthenticated', ...INTERRUPTIONS] },
        callOptions,
      ),

    regenerateRecoveryCodes: (callOptions) =>
      call<RecoveryCodesCallResult>(
        'POST',
        'account/authenticators/recovery-codes',
        {
          success: 'recovery_codes',
          kinds: [
            'recovery_codes',
            'invalid',
            'reauthentication_required',
            'unauthenticated',
            ...INTERRUPTIONS,
          ],
        },
        callOptions,
      ),

    mfaAuthenticate: (code, callOptions) =>
      call<MfaResult>(
        'POST',
        'auth/2fa/authenticate',
        {
          body: { code },
          success: 'authenticated',
          kinds: ['authenticated', 'invalid', 'unauthenticated', ...INTERRUPTIONS],
        },
        callOptions,
      ),

    mfaReauthenticate: (code, callOptions) =>
      call<MfaResult>(
        'POST',
        'auth/2fa/reauthenticate',
        {
          body: { code },
          success: 'authenticated',
          kinds: ['authenticated', 'invalid', 'unauthenticated', ...INTERRUPTIONS],
        },
        callOptions,
      ),

    revokeToken: (id, callOptions) =>
      call<RevokeTokenResult>(
        'DELETE',
        `account/tokens/${encodeURIComponent(String(id))}`,
        { success: 'ok', kinds: ['ok', 'unauthenticated', ...INTERRUPTIONS] },
        callOptions,
      ),

    emailAddresses: (callOptions) =>
      call<EmailAddressesListResult>(
        'GET',
        'account/email',
        { success: 'email_addresses', kinds: ['email_addresses', 'unauthenticated', ...INTERRUPTIONS] },
        callOptions,
      ),

    addEmail(email, callOptions) {
      const body = { email: emailAddressInput(email) };
      return call<AddEmailResult>(
        'POST',
        'account/email',
        {
          body,
          success: 'email_addresses',
          kinds: [
            'email_addresses',
            'invalid',
            'reauthentication_required',
            'unauthenticated',
            ...INTERRUPTIONS,
          ],
        },
        callOptions,
      );
    },

    makePrimaryEmail(email, callOptions) {
      const body = { email: emailAddressInput(email), primary: true };
      return call<MakePrimaryEmailResult>(
        'PATCH',
        'account/email',
        {
          body,
          success: 'email_addresses',
          kinds: [
            'email_addresses',
            'invalid',
            'reauthentication_required',
            'unauthenticated',
            ...INTERRUPTIONS,
          ],
        },
        callOptions,
      );
    },

    resendEmailVerification(email, callOptions) {
      const body = { email: emailAddressInput(email) };
      return call<ResendEmailVerificationResult>(
        'PUT',
        'account/email',
        { body, success: 'ok', kinds: ['ok', 'invalid', 'unauthenticated', ...INTERRUPTIONS] },
        callOptions,
      );
    },

    removeEmail(email, callOptions) {
      const body = { email: emailAddressInput(email) };
      return call<RemoveEmailResult>(
        'DELETE',
        'account/email',
        {
          body,
          success: 'email_addresses',
          kinds: ['email_addresses', 'invalid', 'unauthenticated', ...INTERRUPTIONS],
        },
        callOptions,
      );
    },

    async me(callOptions = {}) {
      const sentToken = tokenStore.getToken();
      const user = await http.get('app/me/', { schema: currentUserSchema, signal: callOptions.signal });
      refreshDetails(sentToken, profileDetailsOf(user));
      return user;
    },

    async updateMe(update, callOptions = {}) {
      const sentToken = tokenStore.getToken();
      const result = await http.patch('app/me/', update, {
        schema: profileUpdateResultSchema,
        signal: callOptions.signal,
      });
      refreshDetails(sentToken, profileDetailsOf(result.user));
      return result;
    },
  };
}
