/** The blueprints list. */
export const BLUEPRINTS_PATH = '/dashboard/blueprints';

/** A blueprint's page (the uuid encoded, so no identifier can change the path). */
export function blueprintPath(uuid: string): string {
  return `${BLUEPRINTS_PATH}/${encodeURIComponent(uuid)}`;
}

/** A blueprint's editor (issue 6's screen). */
export function blueprintEditorPath(uuid: string): string {
  return `${blueprintPath(uuid)}/edit`;
}
