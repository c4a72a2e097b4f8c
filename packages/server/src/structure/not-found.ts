import { HttpError } from '../http/http-error.js';
import type { ParentKind } from './section-view.js';

/** Requests whose body may carry a content tree may be this large (`docs/http-api.md` "Content"). */
export const CONTENT_BODY_LIMIT = 5 * 1024 * 1024;

/**
 * The 404 for anything the caller may not see or may not change: never 403, which the specified
 * client takes for "signed out" (`docs/http-api.md` "Shared rules").
 */
export function notFound(kind: ParentKind | 'section' | 'subsection'): HttpError {
  const noun = { document: 'Document', blueprint: 'Blueprint', section: 'Section', subsection: 'Subsection' }[
    kind
  ];
  return new HttpError(404, 'not_found', `${noun} not found.`);
}
