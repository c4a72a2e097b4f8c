/**
 * `@planwright/sdk`: the framework-free core shared by the web app, the CLI and the server.
 * Everything public is listed here by name.
 */

export { avatarInitials, UNKNOWN_INITIALS } from './account/avatar-initials.js';
export {
  type CurrentUser,
  currentUserSchema,
  type ProfileUpdate,
  type ProfileUpdateResult,
  profileUpdateResultSchema,
} from './account/current-user.js';
export {
  type AuthClient,
  type AuthClientKind,
  type AuthClientOptions,
  createAuthClient,
  type LoginInput,
  type ProviderRedirectForm,
  type ProviderRedirectInput,
  type ResetPasswordInput,
  type SignupInput,
} from './auth/auth-client.js';
export {
  type AuthConfig,
  type AuthErrorItem,
  type AuthFlow,
  type AuthMethod,
  type AuthUser,
  authConfigSchema,
  authErrorSchema,
  authenticatedEnvelopeSchema,
  authFlowSchema,
  authMethodSchema,
  authUserSchema,
  configEnvelopeSchema,
  csrfAnswerSchema,
  emailVerificationInfoEnvelopeSchema,
  errorsEnvelopeSchema,
  okEnvelopeSchema,
  passwordResetInfoEnvelopeSchema,
  unauthenticatedEnvelopeSchema,
} from './auth/auth-envelopes.js';
export {
  emailAddressError,
  type FormValidation,
  type PasswordResetForm,
  type SignupForm,
  validatePasswordReset,
  validateSignup,
} from './auth/auth-form-validation.js';
export {
  emailVerificationErrorMessage,
  passwordResetErrorMessage,
  SIGNUP_ERROR_MESSAGES,
  type SignupErrorCode,
  type SignupErrorMessages,
  type SignupMessageField,
  signInErrorMessage,
  signupErrorMessages,
} from './auth/auth-messages.js';
export type {
  AuthenticatedResult,
  AuthIssue,
  AuthResult,
  AuthResultKind,
  ConflictResult,
  EmailVerificationInfoCheck,
  EmailVerificationInfoResult,
  ForbiddenResult,
  InterruptedResult,
  InvalidResult,
  LoginResult,
  LogoutResult,
  OkResult,
  PasswordResetInfoCheck,
  PasswordResetInfoResult,
  PasswordResetRequestResult,
  PendingResult,
  RateLimitedResult,
  ResetPasswordResult,
  SessionGoneResult,
  SessionResult,
  SignupResult,
  UnauthenticatedResult,
  VerifyEmailResult,
} from './auth/auth-result.js';
export {
  AUTH_VALIDATION_TEXTS,
  EMAIL_VERIFICATION_TEXTS,
  PASSWORD_MIN_LENGTH,
  PASSWORD_RESET_TEXTS,
  PROVIDER_SIGN_IN_TEXTS,
  SIGN_IN_TEXTS,
  SIGN_UP_TEXTS,
} from './auth/auth-texts.js';
export {
  BrowserStorageTokenStore,
  type BrowserStorageTokenStoreOptions,
  SESSION_STORAGE_KEYS,
  type StorageLike,
} from './auth/browser-storage-token-store.js';
export { CSRF_COOKIE_NAME, csrfTokenFromDocumentCookie, readCookie } from './auth/csrf-cookie.js';
export { MemoryTokenStore } from './auth/memory-token-store.js';
export {
  BaseTokenStore,
  type SessionInfo,
  type SessionSnapshot,
  type TokenStore,
} from './auth/token-store.js';
export { createPlanwrightClient, type PlanwrightClient, type PlanwrightClientOptions } from './client.js';
export { AbortedError, type AbortedErrorOptions } from './errors/aborted-error.js';
export { ApiError, type ApiErrorOptions } from './errors/api-error.js';
export { AuthRequiredError } from './errors/auth-required-error.js';
export { ERROR_CODES, type ErrorCode } from './errors/error-codes.js';
export { toErrorMessage } from './errors/error-message.js';
export { InvalidInputError, type InvalidInputErrorOptions } from './errors/invalid-input-error.js';
export type { ValidationIssue } from './errors/issue-summary.js';
export { NetworkError, type NetworkErrorOptions } from './errors/network-error.js';
export { PlanwrightError, type PlanwrightErrorOptions } from './errors/planwright-error.js';
export {
  ResponseValidationError,
  type ResponseValidationErrorOptions,
} from './errors/response-validation-error.js';
export {
  type AuthRequiredInfo,
  type CallWithBody,
  type CallWithoutBody,
  type CredentialsMode,
  createHttpClient,
  type HttpClient,
  type HttpClientOptions,
  type HttpMethod,
  type RawRequestOptions,
  type RequestOptions,
  type RequestWithBodyOptions,
  type ResponseData,
  type ResponseSchema,
} from './http/http-client.js';
export type { QueryParams, QueryValue } from './http/query-string.js';
export type { CallOptions } from './resources/call-options.js';
export {
  type ContactMessage,
  type ContactMessageInput,
  type ContactResource,
  contactMessageSchema,
  createContactResource,
} from './resources/contact.js';
export { type ListPage, listSchema, normalizeList } from './resources/list.js';
export {
  createSiteResource,
  type Health,
  healthSchema,
  type SiteResource,
  type StripeConfig,
  stripeConfigSchema,
} from './resources/site.js';
export type { Listener } from './state/subscribable.js';
export {
  DARK_THEME,
  isTheme,
  LIGHT_THEME,
  resolveTheme,
  THEMES,
  type Theme,
  toggleTheme,
} from './theme/theme.js';
