/**
 * `@planwright/sdk`: the framework-free core shared by the web app, the CLI and the server.
 * Everything public is listed here by name.
 */

export {
  BrowserStorageTokenStore,
  type BrowserStorageTokenStoreOptions,
  SESSION_STORAGE_KEYS,
  type StorageLike,
} from './auth/browser-storage-token-store.js';
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
