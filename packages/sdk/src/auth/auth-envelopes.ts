import * as z from 'zod';

/**
 * The allauth headless envelopes of `docs/auth.md`, as zod schemas the SDK parses every answer with and the
 * server may build its answers from. Objects strip keys they do not know, so a server that adds a field
 * breaks nobody; a documented field that is missing or of the wrong type is a
 * `ResponseValidationError`.
 */

/** The user of every authenticated answer. */
export const authUserSchema = z.object({
  id: z.string(),
  /** What to call the user: "First Last", or (allauth's fallback) the e-mail address. */
  display: z.string(),
  email: z.string(),
  has_usable_password: z.boolean(),
  has_verified_email: z.boolean(),
  // Planwright's extension: allauth's own user has no picture, so an allauth server without it still works.
  avatar_url: z
    .string()
    .nullish()
    .transform((value) => value ?? null),
});

/** The user of an authenticated answer (`docs/auth.md` "Envelopes"). */
export type AuthUser = z.output<typeof authUserSchema>;

/**
 * How the session was authenticated: `{method: 'password', at, email}` or
 * `{method: 'socialaccount', at, provider}`. One open object rather than a closed union, so a server that
 * adds a method (allauth has `code`, `mfa`…) does not make every login fail to parse.
 */
export const authMethodSchema = z.object({
  method: z.string(),
  /** Unix seconds. */
  at: z.number(),
  email: z.string().optional(),
  provider: z.string().optional(),
});

/** One entry of `data.methods`. */
export type AuthMethod = z.output<typeof authMethodSchema>;

/** A flow the client may take next; `is_pending` marks the one this session waits in. */
export const authFlowSchema = z.object({
  id: z.string(),
  providers: z.array(z.string()).optional(),
  is_pending: z.boolean().optional(),
});

/** One entry of `data.flows`. */
export type AuthFlow = z.output<typeof authFlowSchema>;

/** One input error of a 400 answer; `param` is absent for errors about the request as a whole. */
export const authErrorSchema = z.object({
  message: z.string(),
  code: z.string(),
  param: z.string().optional(),
});

/** One entry of a 400 answer's `errors`. */
export type AuthErrorItem = z.output<typeof authErrorSchema>;

const sessionToken = z.string().min(1).optional();

/** 200: the session is signed in. */
export const authenticatedEnvelopeSchema = z.object({
  status: z.literal(200),
  data: z.object({ user: authUserSchema, methods: z.array(authMethodSchema) }),
  meta: z.object({ is_authenticated: z.literal(true), session_token: sessionToken }),
});

/** 401 (not signed in, maybe with a pending flow) or 410 (the session token is dead). */
export function unauthenticatedEnvelopeSchema<S extends 401 | 410>(status: S) {
  return z.object({
    status: z.literal(status),
    data: z.object({ flows: z.array(authFlowSchema) }),
    meta: z.object({ is_authenticated: z.literal(false), session_token: sessionToken }),
  });
}

/** 400: input errors. */
export const errorsEnvelopeSchema = z.object({
  status: z.literal(400),
  errors: z.array(authErrorSchema),
});

/** 200 with nothing to say (`POST auth/password/request`). */
export const okEnvelopeSchema = z.object({ status: z.literal(200) });

/** 200 to `GET auth/email/verify`: the key is good; `is_authenticating` says verifying it signs this session in. */
export const emailVerificationInfoEnvelopeSchema = z.object({
  status: z.literal(200),
  data: z.object({ email: z.string(), user: authUserSchema }),
  meta: z.object({ is_authenticating: z.boolean() }),
});

/** 200 to `GET auth/password/reset`: the key is good and belongs to `user`. */
export const passwordResetInfoEnvelopeSchema = z.object({
  status: z.literal(200),
  data: z.object({ user: authUserSchema }),
});

/** 401 with `is_authenticated: true`: signed in, but a sensitive action needs the password (or a sign-in) again. */
export const reauthenticationEnvelopeSchema = z.object({
  status: z.literal(401),
  data: z.object({
    user: authUserSchema,
    methods: z.array(authMethodSchema),
    flows: z.array(authFlowSchema),
  }),
  meta: z.object({ is_authenticated: z.literal(true) }),
});

/** A signed-in session of the account (`GET auth/sessions`); `client` is Planwright's addition. */
export const authSessionSchema = z.object({
  id: z.number().int(),
  client: z.string().optional(),
  user_agent: z.string(),
  ip: z.string(),
  /** Unix seconds. */
  created_at: z.number(),
  last_seen_at: z.number().optional(),
  is_current: z.boolean(),
});

/** One signed-in session of the account. */
export type AuthSession = z.output<typeof authSessionSchema>;

/** 200 to `GET`/`DELETE auth/sessions`. */
export const sessionsEnvelopeSchema = z.object({ status: z.literal(200), data: z.array(authSessionSchema) });

/** A personal access token as its owner lists it (docs/auth.md "Personal access tokens"): never the token. */
export const personalTokenSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  scope: z.enum(['read', 'write']),
  /** The token's first characters (`pwt_` and four more), to tell tokens apart. */
  token_hint: z.string(),
  /** Unix seconds. */
  created_at: z.number(),
  expires_at: z.number().nullable(),
  last_used_at: z.number().nullable(),
});

/** A personal access token of the account. */
export type PersonalToken = z.output<typeof personalTokenSchema>;

/** 200 to `GET account/tokens`. */
export const tokensEnvelopeSchema = z.object({ status: z.literal(200), data: z.array(personalTokenSchema) });

/** 200 to `POST account/tokens`: the token itself in `meta.token`, this once. */
export const tokenCreatedEnvelopeSchema = z.object({
  status: z.literal(200),
  data: personalTokenSchema,
  meta: z.object({ token: z.string().min(1) }),
});

/** An address of the account (`GET account/email`, allauth's `EmailAddress`): the primary one signs in. */
export const emailAddressSchema = z.object({
  email: z.string(),
  /** The address the account signs in with; exactly one is. */
  primary: z.boolean(),
  /** Whether its e-mailed link has been opened. */
  verified: z.boolean(),
});

/** One address of the account. */
export type EmailAddress = z.output<typeof emailAddressSchema>;

/** 200 to `GET`/`POST`/`PATCH`/`DELETE account/email`: the account's addresses, the primary first. */
export const emailAddressesEnvelopeSchema = z.object({
  status: z.literal(200),
  data: z.array(emailAddressSchema),
});

/** A second factor of the account (`GET account/authenticators`): its TOTP, or its recovery codes with counts. */
export const authenticatorSchema = z.object({
  type: z.string(),
  /** Unix seconds. */
  created_at: z.number(),
  last_used_at: z.number().nullable(),
  total_code_count: z.number().int().optional(),
  unused_code_count: z.number().int().optional(),
});

/** One second factor of the account. */
export type Authenticator = z.output<typeof authenticatorSchema>;

/** 200 to `GET account/authenticators`. */
export const authenticatorsEnvelopeSchema = z.object({
  status: z.literal(200),
  data: z.array(authenticatorSchema),
});

/** 200 to `GET`/`POST account/authenticators/totp`: TOTP is on. */
export const totpEnvelopeSchema = z.object({ status: z.literal(200), data: authenticatorSchema });

/** 404 to `GET account/authenticators/totp`: TOTP is off; the secret and URL to set it up with. */
export const totpOfferEnvelopeSchema = z.object({
  status: z.literal(404),
  meta: z.object({ secret: z.string().min(1), totp_url: z.string().min(1) }),
});

/** 200 to `GET`/`POST account/authenticators/recovery-codes`; `unused_codes` only when just made. */
export const recoveryCodesEnvelopeSchema = z.object({
  status: z.literal(200),
  data: authenticatorSchema.extend({
    total_code_count: z.number().int(),
    unused_code_count: z.number().int(),
    unused_codes: z.array(z.string()),
  }),
});

/** `data` of `GET config`. */
export const authConfigSchema = z.object({
  account: z.object({
    login_methods: z.array(z.string()).optional(),
    is_open_for_signup: z.boolean(),
    email_verification_by_code_enabled: z.boolean(),
    login_by_code_enabled: z.boolean(),
    password_reset_by_code_enabled: z.boolean(),
  }),
  socialaccount: z
    .object({
      providers: z.array(z.object({ id: z.string(), name: z.string(), flows: z.array(z.string()) })),
    })
    .optional(),
});

/** What the server allows: sign-up open or not, and the third-party providers (Google) when configured. */
export type AuthConfig = z.output<typeof authConfigSchema>;

/** 200 to `GET config`. */
export const configEnvelopeSchema = z.object({ status: z.literal(200), data: authConfigSchema });

/** `GET /api/v1/apps/csrf/`. */
export const csrfAnswerSchema = z.object({ csrftoken: z.string().min(1) });
