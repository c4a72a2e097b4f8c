/** The documents list. */
export const DOCUMENTS_PATH = '/dashboard/documents';

/** A document's page (the uuid encoded, so no identifier can change the path). */
export function documentPath(uuid: string): string {
  return `${DOCUMENTS_PATH}/${encodeURIComponent(uuid)}`;
}

/** A document's editor (issue 5's screen). */
export function documentEditorPath(uuid: string): string {
  return `${documentPath(uuid)}/edit`;
}
