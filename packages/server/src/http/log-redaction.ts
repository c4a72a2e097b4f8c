import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/** What a redacted value is logged as. */
export const REDACTED = '[redacted]';

/**
 * Query parameters whose values are secrets: any name holding `token`, `key`, `secret`, `password` or `jwt`,
 * and the OAuth callback's `code` and `state` (a code is exchanged for a session).
 */
const SECRET_PARAMETER = /token|key|secret|password|jwt/i;
const SECRET_PARAMETER_EXACT = new Set(['code', 'state']);

/** Whether a query parameter of this name carries a secret, so it is never logged nor taken from a URL. */
export function isSecretParameter(name: string): boolean {
  return SECRET_PARAMETER.test(name) || SECRET_PARAMETER_EXACT.has(name.toLowerCase());
}

/**
 * Web pages whose path holds a key: the e-mailed verification and password-reset links (their next segment
 * is the key, which a browser requests when the user clicks the link), and share links (`/s/{token}`; not the
 * reader page's own files under `/s/_/`).
 */
const KEY_PATH = /^(\/account\/verify-email\/|\/account\/password\/reset\/key\/|\/s\/)(?!_\/)[^/?#]+/;

/**
 * `url` (a path with an optional query, as `request.url` has it) with every secret query parameter's value,
 * and the key of an e-mailed link's path, replaced by `[redacted]`. The rest is kept byte for byte, so a log
 * still shows what was asked.
 */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  const path = (at === -1 ? url : url.slice(0, at)).replace(KEY_PATH, `$1${REDACTED}`);
  if (at === -1) return path;
  const query = url.slice(at + 1);
  const parts = query.split('&').map((part) => {
    const equals = part.indexOf('=');
    const rawName = equals === -1 ? part : part.slice(0, equals);
    let name = rawName;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
    } catch {
      // A malformed escape is checked as written.
    }
    if (!isSecretParameter(name)) return part;
    return `${rawName}=${REDACTED}`;
  });
  return `${path}?${parts.join('&')}`;
}

/** Headers that carry credentials, wherever a log line holds a headers object. */
const SECRET_HEADERS = [
  'authorization',
  'cookie',
  'set-cookie',
  'x-session-token',
  'x-csrftoken',
  'proxy-authorization',
  'x-email-verification-key',
  'x-password-reset-key',
];

/** pino `redact` paths: the secret headers under the usual places a log line keeps headers. */
export const REDACTED_LOG_PATHS: readonly string[] = [
  ...['req.headers', 'res.headers', 'request.headers', 'reply.headers', 'headers', 'err.headers'].flatMap(
    (base) => SECRET_HEADERS.map((header) => `${base}["${header}"]`),
  ),
  'token',
  'key',
  'password',
];

/** Fastify's own request serializer, with the URL's secrets redacted and its headers never included. */
function serializeRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactUrl(request.url),
    version: request.headers?.['accept-version'],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

type LoggerOption = FastifyServerOptions['logger'];

/**
 * Adds redaction to Fastify's logger option: secret headers and fields are censored in every line and a
 * request's URL is logged without its secret query parameters (docs/security.md "Secrets in logs").
 * `false` stays off; a caller's own serializers and redact paths are kept alongside.
 */
export function withLogRedaction(logger: LoggerOption, level: string): LoggerOption {
  if (logger === false) return false;
  const options = logger === true || logger === undefined ? { level } : logger;
  const given = options.redact;
  const paths = Array.isArray(given) ? given : (given?.paths ?? []);
  return {
    ...options,
    redact: { paths: [...REDACTED_LOG_PATHS, ...paths], censor: REDACTED },
    serializers: { req: serializeRequest, ...options.serializers },
  };
}
