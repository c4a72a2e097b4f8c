/** The field messages of a 400 answer (`errors: [{param, message}]`, docs/http-api.md), as `param: message`. */
function fieldMessages(data: unknown): string[] {
  const errors = (data as { errors?: unknown } | null | undefined)?.errors;
  if (!Array.isArray(errors)) return [];
  return errors.flatMap((entry: unknown) => {
    const { param, message } = (entry ?? {}) as { param?: unknown; message?: unknown };
    if (typeof message !== 'string' || message.trim() === '') return [];
    return [typeof param === 'string' && param !== '' ? `${param}: ${message}` : message];
  });
}

/** The server's code for a call the caller's role on a plan does not allow (docs/teams.md). */
export const NOT_PERMITTED = 'not_permitted';

/** The server's code for a sensitive call whose sign-in is over 5 minutes old (docs/auth.md, 428). */
export const REAUTHENTICATION_REQUIRED = 'reauthentication_required';

/**
 * "the server answered 503 Service Unavailable: The database is not answering.": an SDK `ApiError`
 * in one line. Its message is the raw response body (maybe a proxy's HTML page); `detail` is the
 * readable part our server sends, and a refused input adds what each field's problem is
 * ("… 400 Bad Request: Invalid input: version (version: Publish a version above 3.)").
 *
 * A role refusal (`not_permitted`) is the server's reason alone ("Only the owner can invite people to this
 * document."): it comes as a 404 only so that clients do not take it for "signed out", and "404 Not Found"
 * in front of it would say the plan is gone when the caller is looking at it.
 */
export function describeApiError(error: {
  status: number;
  statusText?: string | undefined;
  detail?: string | undefined;
  serverCode?: string | undefined;
  data?: unknown;
}): string {
  if (error.serverCode === NOT_PERMITTED && error.detail) return error.detail;
  // A sensitive call (deleting a shared plan) asks for a fresh sign-in; the terminal's way is to sign in again.
  if (error.serverCode === REAUTHENTICATION_REQUIRED) {
    return `${error.detail ?? 'This needs a recent sign-in.'} Run \`planwright logout\` and \`planwright login\`, then try again within 5 minutes.`;
  }
  const status = [error.status, error.statusText].filter(Boolean).join(' ');
  const fields = fieldMessages(error.data);
  const reasons = fields.length > 0 ? ` (${fields.join('; ')})` : '';
  return `the server answered ${status}${error.detail ? `: ${error.detail}` : ''}${reasons}`;
}
