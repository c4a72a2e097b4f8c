/**
 * Every code a {@link PlanwrightError} can carry. The CLI, the web app and the server switch on these
 * strings, so they are part of the public contract: add codes, never rename them.
 */
export const ERROR_CODES = {
  /** The server answered with a non-OK status other than 401/403. */
  API_ERROR: 'api_error',
  /** The server answered 401 or 403: the session is missing or no longer valid. */
  AUTH_REQUIRED: 'auth_required',
  /** The request never got an answer: the connection failed, was refused or was reset. */
  NETWORK_ERROR: 'network_error',
  /** The caller's `AbortSignal` fired before the request finished. */
  ABORTED: 'aborted',
  /** The server answered OK, but the body did not have the expected shape. */
  INVALID_RESPONSE: 'invalid_response',
  /** Input handed to the SDK failed its schema before anything was sent. */
  INVALID_INPUT: 'invalid_input',
  /** A write sent `If-Match` with a revision the server no longer holds (412); nothing was written. */
  REVISION_CONFLICT: 'revision_conflict',
  /** A document's content tree is broken in a way normalisation cannot repair (see `model/SPEC.md`). */
  INVALID_CONTENT: 'invalid_content',
  /** A file could not be imported or converted (see `FormatError.reason` for why; nothing was saved). */
  FORMAT_ERROR: 'format_error',
  /**
   * An entry point of the SDK needs an optional package that is not installed (`./model`, `./formats`,
   * `./formats/node` and `./proposals` need Tiptap, markdown-it, docx, pdfmake…); the suggestion names them.
   */
  MISSING_DEPENDENCY: 'missing_dependency',
  /**
   * The server has no AI model for what was asked (409 `ai_model_required`): with no model connected, only
   * `fix_grammar`, `simplify` and `shorten` transform offline. Retrying does not help; connecting a model does.
   */
  AI_MODEL_REQUIRED: 'ai_model_required',
} as const;

/** One of the {@link ERROR_CODES} values. */
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];
