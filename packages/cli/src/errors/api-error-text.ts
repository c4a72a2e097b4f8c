/**
 * "the server answered 503 Service Unavailable: The database is not answering.": an SDK `ApiError`
 * in one line. Its message is the raw response body (maybe a proxy's HTML page); `detail` is the
 * readable part our server sends.
 */
export function describeApiError(error: {
  status: number;
  statusText?: string | undefined;
  detail?: string | undefined;
}): string {
  const status = [error.status, error.statusText].filter(Boolean).join(' ');
  return `the server answered ${status}${error.detail ? `: ${error.detail}` : ''}`;
}
