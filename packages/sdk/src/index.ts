/**
 * `@planwright/sdk`: the framework-free core shared by the web app, the CLI and the server.
 * Everything public is listed here by name.
 *
 * @module @planwright/sdk
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
  ACTIVITY_LEVELS,
  ACTIVITY_TEXTS,
  ACTIVITY_VISIBLE,
  type ActivityView,
  activityView,
  showAllLabel,
} from './activity/activity-view.js';
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
  type Authenticator,
  type AuthFlow,
  type AuthMethod,
  type AuthSession,
  type AuthUser,
  authConfigSchema,
  authErrorSchema,
  authenticatedEnvelopeSchema,
  authenticatorSchema,
  authenticatorsEnvelopeSchema,
  authFlowSchema,
  authMethodSchema,
  authSessionSchema,
  authUserSchema,
  configEnvelopeSchema,
  csrfAnswerSchema,
  type EmailAddress,
  emailAddressesEnvelopeSchema,
  emailAddressSchema,
  emailVerificationInfoEnvelopeSchema,
  errorsEnvelopeSchema,
  okEnvelopeSchema,
  type PersonalToken,
  passwordResetInfoEnvelopeSchema,
  personalTokenSchema,
  reauthenticationEnvelopeSchema,
  recoveryCodesEnvelopeSchema,
  sessionsEnvelopeSchema,
  tokenCreatedEnvelopeSchema,
  tokensEnvelopeSchema,
  totpEnvelopeSchema,
  totpOfferEnvelopeSchema,
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
  ActivateTotpResult,
  AddEmailResult,
  AuthenticatedResult,
  AuthenticatorsListResult,
  AuthenticatorsResult,
  AuthIssue,
  AuthResult,
  AuthResultKind,
  ChangePasswordResult,
  ConflictResult,
  CreateTokenResult,
  DeactivateTotpResult,
  EmailAddressesListResult,
  EmailAddressesResult,
  EmailVerificationInfoCheck,
  EmailVerificationInfoResult,
  EndSessionsResult,
  ForbiddenResult,
  InterruptedResult,
  InvalidResult,
  LoginResult,
  LogoutResult,
  MakePrimaryEmailResult,
  MfaResult,
  OkResult,
  PasswordResetInfoCheck,
  PasswordResetInfoResult,
  PasswordResetRequestResult,
  PendingResult,
  RateLimitedResult,
  ReauthenticateResult,
  ReauthenticationRequiredResult,
  RecoveryCodesCallResult,
  RecoveryCodesResult,
  RemoveEmailResult,
  ResendEmailVerificationResult,
  ResetPasswordResult,
  RevokeTokenResult,
  SessionGoneResult,
  SessionResult,
  SessionsListResult,
  SessionsResult,
  SignupResult,
  TokenCreatedResult,
  TokensListResult,
  TokensResult,
  TotpActiveResult,
  TotpOfferedResult,
  TotpStatusResult,
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
export { emailAddressInputSchema } from './auth/email-address-rules.js';
export { MemoryTokenStore } from './auth/memory-token-store.js';
export {
  type PersonalTokenInput,
  personalTokenInputSchema,
  TOKEN_LIFETIME_DAYS,
  TOKEN_NAME_MAX_LENGTH,
} from './auth/personal-token-rules.js';
export {
  BaseTokenStore,
  type SessionInfo,
  type SessionSnapshot,
  type TokenStore,
} from './auth/token-store.js';
export {
  type BlueprintAuthorship,
  type BlueprintPublication,
  type BlueprintPublicationInput,
  blueprintPublication,
  blueprintTitle,
  isPreferredBlueprint,
  mcpUrlError,
  preferredBlueprint,
  publisherLabel,
  validateBlueprintTitle,
  versionError,
} from './blueprints/blueprint-display.js';
export {
  BLUEPRINT_TEXTS,
  BLUEPRINT_VERSION_MIN,
  PREFERRED_BLUEPRINT_TITLE,
  RECENT_BLUEPRINTS,
  STUDIO_PUBLISHER,
} from './blueprints/blueprint-texts.js';
// The realtime chat session (spec 001 §4; rules in chat/SPEC.md).
export {
  type ChatAttachment,
  type ChatAttachmentInfo,
  type ChatRole,
  type ChatSendOptions,
  type ChatToolCall,
  type ChatWireContext,
  chatAttachmentsSchema,
  type FrameFailure,
  type HistoryEntry,
  type IncomingFrame,
  MAX_ATTACHMENT_CHARACTERS,
  MAX_ATTACHMENT_NAME_LENGTH,
  MAX_CHAT_ATTACHMENTS,
  messageFrame,
  type OutgoingFrame,
  type ProposalStatus,
  parseIncomingFrame,
} from './chat/chat-messages.js';
export {
  CHAT_CLOSE,
  CHAT_LIMITS,
  type ChatFrameContext,
  type ChatProtocolSchemas,
  type ClientFrame,
  chatProtocolSchemas,
  FINAL_CHAT_CLOSE_CODES,
  PROPOSAL_TOOL_NAMES,
  type ProtocolRefusal,
  parseClientFrame,
  parseServerFrame,
  type ServerFrame,
  TOOL_CALL_SOURCES,
  type ToolCallFrame,
} from './chat/chat-protocol.js';
export {
  type ChatConnectionStatus,
  type ChatDelivery,
  type ChatMessage,
  type ChatProposal,
  type ChatProposalDraft,
  type ChatSendResult,
  ChatSession,
  type ChatSessionOptions,
  type ChatSnapshot,
  type ChatStreamEvent,
  type ToolExecutionState,
} from './chat/chat-session.js';
export { CHAT_LIMIT_TEXTS, CHAT_TEXTS, CHAT_TIMINGS, DEFAULT_CHAT_QUEUE_LIMIT } from './chat/chat-texts.js';
export {
  browserSocketFactory,
  type ChatClock,
  type ChatCloseEvent,
  type ChatLogger,
  type ChatSocket,
  type ChatSocketFactory,
  systemChatClock,
} from './chat/chat-transport.js';
export { type ChatScope, chatSocketUrl } from './chat/chat-url.js';
export { createPlanwrightClient, type PlanwrightClient, type PlanwrightClientOptions } from './client.js';
export {
  documentTitle,
  formatProgress,
  formatProgressShort,
  type ProgressCounts,
  type StatusBadgeColor,
  statusBadgeColor,
  statusLabel,
  validateDocumentTitle,
} from './documents/document-display.js';
export { DOCUMENT_TEXTS, RECENT_DOCUMENTS } from './documents/document-texts.js';
export { AbortedError, type AbortedErrorOptions } from './errors/aborted-error.js';
export { ApiError, type ApiErrorOptions } from './errors/api-error.js';
export { AuthRequiredError } from './errors/auth-required-error.js';
export { ERROR_CODES, type ErrorCode } from './errors/error-codes.js';
export { toErrorMessage } from './errors/error-message.js';
export { type ApiFieldError, apiFieldErrors } from './errors/field-errors.js';
// The small, dependency-free part of `@planwright/sdk/formats`, for apps that only name formats and files.
export {
  FORMAT_ERROR_REASONS,
  FormatError,
  type FormatErrorReason,
  isFormatErrorReason,
} from './errors/format-error.js';
export { InvalidInputError, type InvalidInputErrorOptions } from './errors/invalid-input-error.js';
export type { ValidationIssue } from './errors/issue-summary.js';
export { NetworkError, type NetworkErrorOptions } from './errors/network-error.js';
export { PlanwrightError, type PlanwrightErrorOptions } from './errors/planwright-error.js';
export {
  ResponseValidationError,
  type ResponseValidationErrorOptions,
} from './errors/response-validation-error.js';
export { RevisionConflictError } from './errors/revision-conflict-error.js';
export {
  DOCUMENT_IMPORT_FORMATS,
  EXPORT_CONTENT_TYPES,
  EXPORT_FORMATS,
  type ExportFormat,
  exportFileName,
  importFormatOf,
  isTextFormat,
  parseExportFormat,
  requireImportFormat,
} from './formats/format-names.js';
export type { ImportFormat, ImportNote, ImportNoteCode, ImportReport } from './formats/import-report.js';
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
export {
  type DocumentOutline,
  type OutlineSection,
  type OutlineSubsection,
  outlineOf,
} from './model/outline.js';
export { type DocumentProgress, progressOf, progressPercent } from './model/progress.js';
export {
  type ActivitiesResource,
  type Activity,
  type ActivityActor,
  type ActivityQuery,
  type ActivitySeverity,
  activitySchema,
  activitySeverity,
} from './resources/activities.js';
export {
  AI_TEXTS,
  type AiActionAvailability,
  type AiContext,
  type AiContextMessage,
  type AiContextPart,
  type AiContextQuery,
  type AiContextToolCall,
  type AiContextToolResult,
  type AiProviderInfo,
  type AiProviderSummary,
  type AiProviderSupports,
  type AiResource,
  type AiUsage,
  type AiUsageTotals,
  aiContextSchema,
  aiProviderInfoSchema,
  aiUsageSchema,
  type ChatAttachmentFile,
  CONTEXT_MESSAGE_MAX_LENGTH,
  createAiResource,
  TRANSFORM_ACTIONS,
  TRANSFORM_LIMITS,
  type TransformAction,
  type TransformedItem,
  type TransformItemInput,
  type TransformStructuredInput,
  type TransformStructuredResult,
  type TransformTextInput,
  type TransformTextOptions,
  type TransformTextResult,
} from './resources/ai.js';
export {
  BLUEPRINT_STATUSES,
  BLUEPRINT_VISIBILITIES,
  type BlueprintChanges,
  type BlueprintDetail,
  type BlueprintPublishInput,
  type BlueprintStatus,
  type BlueprintSummary,
  type BlueprintsResource,
  type BlueprintUser,
  type BlueprintVisibility,
  blueprintDetailSchema,
  blueprintSummarySchema,
} from './resources/blueprints.js';
export type { CallOptions, WriteOptions } from './resources/call-options.js';
export {
  CHAT_TARGETS,
  CHATS_PAGE_SIZE_MAX,
  type ChatListQuery,
  type ChatSessionExtras,
  type ChatSummary,
  type ChatsResource,
  type ChatTarget,
  type ChatTargetInput,
  createChatsResource,
} from './resources/chats.js';
export {
  COMMENT_MAX_LENGTH,
  COMMENT_QUOTE_MAX_LENGTH,
  type CommentAuthor,
  type CommentMessage,
  type CommentsResource,
  type CommentThread,
  commentBodySchema,
  commentThreadSchema,
  type NewCommentThread,
} from './resources/comments.js';
export {
  type ContactMessage,
  type ContactMessageInput,
  type ContactResource,
  contactMessageSchema,
  createContactResource,
} from './resources/contact.js';
export {
  CONVERSION_TEXTS,
  type ConversionFormat,
  type ConversionOptions,
  type ConversionResource,
  type ConversionResourceOptions,
  createConversionResource,
  TOKEN_REFRESH_MARGIN_MS,
} from './resources/conversion.js';
export {
  type DocumentFileCalls,
  type DocumentImportResult,
  EXPORT_TEXTS,
  type ImportFileInput,
  type ImportFileOptions,
  type ImportMode,
} from './resources/document-files.js';
export {
  DOCUMENT_SCOPES,
  type DocumentBlueprint,
  type DocumentChanges,
  type DocumentCreateInput,
  type DocumentDetail,
  type DocumentListQuery,
  type DocumentOrdering,
  type DocumentScope,
  type DocumentSummary,
  type DocumentsResource,
  documentDetailSchema,
  documentSummarySchema,
  progressFromCounts,
} from './resources/documents.js';
export { dispositionFileName, type ExportedFile } from './resources/exported-file.js';
export {
  IMPORT_PHASES,
  IMPORT_STREAM_MEDIA_TYPE,
  type ImportPhase,
  type ImportProgress,
  type ImportStreamEvent,
  importConvertingEventSchema,
  importErrorEventSchema,
  importQueuedEventSchema,
  importResultEventSchema,
  importSavingEventSchema,
  importStreamEventSchema,
} from './resources/import-progress.js';
export {
  type AcceptedInvitation,
  type InvitationsResource,
  type InvitationTarget,
  invitationTokenOf,
  type ReceivedInvitation,
} from './resources/invitations.js';
export { type ListPage, listSchema, normalizeList } from './resources/list.js';
export { LIST_ORDERINGS, type ListOrdering, type ListQuery } from './resources/list-query.js';
export {
  type MembersResource,
  PLAN_ROLES,
  type PlanAction,
  type PlanMember,
  type PlanOrganization,
  type PlanRole,
  type PlanSharing,
  planRoleAllows,
  type SentInvitation,
  SHARED_PLAN_ROLES,
  type SharedPlanRole,
  sentInvitationSchema,
  sentInvitationSchemaOf,
  type Teammate,
} from './resources/members.js';
export {
  ORGANIZATION_NAME_MAX_LENGTH,
  ORGANIZATION_ROLES,
  type Organization,
  type OrganizationDetail,
  type OrganizationInvitationInput,
  type OrganizationMember,
  type OrganizationMemberInput,
  type OrganizationRole,
  type OrganizationsResource,
  organizationDetailSchema,
  organizationSchema,
} from './resources/organizations.js';
export {
  type Section,
  type SectionSettings,
  type Subsection,
  sectionSchema,
  sectionsOutlineSchema,
  subsectionSchema,
  TOOL_MODES,
  type ToolMode,
  type WithRevision,
} from './resources/section-schemas.js';
export type {
  CreatedSection,
  CreatedSubsection,
  SectionChanges,
  SectionCreateInput,
  SectionsParent,
  SectionsResource,
  SubsectionChanges,
  SubsectionCreateInput,
  SubsectionsResource,
} from './resources/sections.js';
export {
  type CreatedShareLink,
  SHARE_LINK_LABEL_MAX_LENGTH,
  SHARE_LINK_PASSWORD_MAX_LENGTH,
  SHARE_LINK_PASSWORD_MIN_LENGTH,
  type ShareLink,
  type ShareLinkInput,
  type ShareLinkStatus,
  type ShareLinksResource,
  shareLinkInputSchema,
  shareLinkSchema,
} from './resources/share-links.js';
export {
  createSiteResource,
  type Health,
  healthSchema,
  type PricingPlan,
  pricingPlanSchema,
  type SiteConfig,
  type SiteResource,
  type StripeConfig,
  siteConfigSchema,
  stripeConfigSchema,
} from './resources/site.js';
export {
  globalSystemPromptSchema,
  type SystemPromptResource,
} from './resources/system-prompt.js';
export {
  CONTROL_CHARACTERS_TEXT,
  characterCount,
  DESCRIPTION_MAX_LENGTH,
  exceedsCharacters,
  longTextInputSchema,
  SETTING_TEXT_MAX_LENGTH,
  TITLE_MAX_LENGTH,
  TITLE_REQUIRED_TEXT,
  TITLE_TOO_LONG_TEXT,
  titleError,
  titleInputSchema,
} from './resources/text-fields.js';
export {
  type DiffQuery,
  type DiffSide,
  type DocumentVersion,
  type DocumentVersionDetail,
  documentVersionSchema,
  VERSION_KINDS,
  VERSION_NAME_MAX_LENGTH,
  type VersionDiff,
  type VersionKind,
  type VersionsResource,
  versionNameSchema,
} from './resources/versions.js';
export {
  clearStoredDrafts,
  createStorageDraftStore,
  DRAFT_KEY_PREFIX,
  type Draft,
  type DraftListingStorage,
  type DraftResourceType,
  type DraftStorage,
  type DraftStore,
  draftKey,
  type StorageDraftStoreOptions,
} from './save/draft-store.js';
export {
  type SaveAsideContext,
  type SaveAsideResult,
  type SaveClock,
  SaveController,
  type SaveControllerOptions,
  type SaveRetryOptions,
  type SaveTransportResult,
  type SaveWriteContext,
} from './save/save-controller.js';
export {
  BLUEPRINT_SAVE_DEBOUNCE_MS,
  DOCUMENT_SAVE_DEBOUNCE_MS,
  SAVE_WRITE_TIMEOUT_MS,
  SAVED_TO_IDLE_MS,
  type SaveConflict,
  type SaveFailure,
  type SaveFailureKind,
  type SaveSnapshot,
  type SaveStatus,
} from './save/save-snapshot.js';
export { type Clock, systemClock } from './state/clock.js';
export { type Listener, Subscribable } from './state/subscribable.js';
export { alwaysVisible, browserVisibility, type VisibilitySource } from './state/visibility-source.js';
export {
  DARK_THEME,
  isTheme,
  LIGHT_THEME,
  resolveTheme,
  THEMES,
  type Theme,
  toggleTheme,
} from './theme/theme.js';
