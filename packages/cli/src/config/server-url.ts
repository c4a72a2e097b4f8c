import { type CliIo, readEnv } from '../cli-io.js';
import { UsageError } from '../errors/cli-error.js';
import type { Zod } from '../options/parse-command-input.js';

/** Where `npm start` serves Planwright when nothing else is configured. */
export const DEFAULT_SERVER_URL = 'http://127.0.0.1:8787';

/** The environment variable that overrides the config file's `server`. */
export const SERVER_ENV = 'PLANWRIGHT_SERVER';

export type ServerUrlCheck = { ok: true; url: string } | { ok: false; reason: string };

/**
 * Checks that `raw` is an http(s) URL the SDK can put `/api/v1/…` after, and normalises it: no
 * trailing slash, no query or fragment (they would end up in the middle of every request URL).
 * A path prefix is kept, for servers behind a reverse proxy at `https://example.com/planwright`.
 */
export function checkServerUrl(raw: string): ServerUrlCheck {
  const text = raw.trim();
  // "localhost:8787" parses as a URL with the scheme "localhost:"; say what was probably meant.
  const withoutScheme = !text.includes('://') && /[.:]/.test(text) && URL.canParse(`http://${text}`);
  if (withoutScheme) {
    return {
      ok: false,
      reason: `"${raw}" needs http:// or https:// in front (did you mean http://${text}?)`,
    };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: `"${raw}" is not a URL; expected something like ${DEFAULT_SERVER_URL}` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, reason: `"${raw}" must start with http:// or https://` };
  }
  if (url.username !== '' || url.password !== '') {
    return { ok: false, reason: `"${raw}" must not contain a user name or password` };
  }
  if (url.search !== '' || url.hash !== '') {
    return { ok: false, reason: `"${raw}" must not have a query (?…) or fragment (#…)` };
  }
  return { ok: true, url: `${url.origin}${url.pathname.replace(/\/+$/, '')}` };
}

/**
 * The zod schema of a server URL (for `--server` and the config file), normalised by
 * {@link checkServerUrl}. It takes zod as an argument so that this module, which `--help` loads,
 * does not import zod.
 */
export function serverUrlSchema(z: Zod) {
  return z.string().transform((raw, context) => {
    const checked = checkServerUrl(raw);
    if (checked.ok) return checked.url;
    context.addIssue({ code: 'custom', message: checked.reason, input: raw });
    return z.NEVER;
  });
}

export type ServerUrlSource = 'flag' | 'env' | 'config' | 'default';

export interface ResolvedServerUrl {
  readonly url: string;
  /** Which setting won, so `status` can say where the URL came from. */
  readonly source: ServerUrlSource;
}

/**
 * Picks the server URL: `--server` flag, then `PLANWRIGHT_SERVER`, then the config file's `server`,
 * then {@link DEFAULT_SERVER_URL}. The config file is only read when it matters, so a broken config
 * file does not stop `--server …` from working.
 *
 * @param flag the `--server` value, already checked by the command's option schema.
 * @param readConfiguredServer reads (and validates) the config file's `server`.
 */
export async function resolveServerUrl(options: {
  flag: string | undefined;
  io: CliIo;
  readConfiguredServer: () => Promise<string | undefined>;
}): Promise<ResolvedServerUrl> {
  if (options.flag !== undefined) return { url: options.flag, source: 'flag' };

  const fromEnv = readEnv(options.io, SERVER_ENV);
  if (fromEnv !== undefined) {
    const checked = checkServerUrl(fromEnv);
    if (!checked.ok) {
      throw new UsageError(`${SERVER_ENV}: ${checked.reason}`, {
        suggestion: `Fix or unset ${SERVER_ENV}, or pass --server <url>.`,
      });
    }
    return { url: checked.url, source: 'env' };
  }

  const fromConfig = await options.readConfiguredServer();
  if (fromConfig !== undefined) return { url: fromConfig, source: 'config' };

  return { url: DEFAULT_SERVER_URL, source: 'default' };
}
