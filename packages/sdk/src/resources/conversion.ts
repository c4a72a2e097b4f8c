import * as z from 'zod';
import type { TokenStore } from '../auth/token-store.js';
import { ApiError } from '../errors/api-error.js';
import { ERROR_CODES } from '../errors/error-codes.js';
import { PlanwrightError } from '../errors/planwright-error.js';
import type { ExportFormat } from '../formats/format-names.js';
import type { HttpClient } from '../http/http-client.js';
import type { DocumentJson } from '../model/document-json.js';
import type { CallOptions } from './call-options.js';
import { type ExportedFile, exportedFile } from './exported-file.js';

/** Spec 001 §9: a conversion token is used until this long before it expires, then a new one is asked for. */
export const TOKEN_REFRESH_MARGIN_MS = 10_000;

/** Spec 001 §8. */
export const CONVERSION_TEXTS = {
  noToken: 'No export token returned by server',
} as const;

/** Formats the conversion service makes from a content tree (Markdown comes from `documents.exportMarkdown`). */
export type ConversionFormat = Exclude<ExportFormat, 'md'>;

/** Options of {@link ConversionResource.exportDocument}. */
export type ConversionOptions = CallOptions & {
  /** The document's title: the title page, the table of contents' heading and the file name. */
  title?: string;
};

/** The token-based conversion service of spec 001 §7 (`docs/http-api.md` "Conversion"). */
export interface ConversionResource {
  /**
   * Converts a content tree (what the editor holds, saved or not) to a file. Gets a conversion token
   * first (`POST apps/tiptap/convert/jwt/`, kept until 10 s before it expires), sends the tree with it as
   * a bearer token (`POST apps/tiptap/convert/export/`), and on a 401 gets a new token once and tries again.
   */
  exportDocument(
    content: DocumentJson,
    format: ConversionFormat,
    options?: ConversionOptions,
  ): Promise<ExportedFile>;
  /** Forgets the cached token (the next export asks for a new one). */
  clearToken(): void;
}

/** What {@link createConversionResource} needs. */
export interface ConversionResourceOptions {
  /** Whose session the cached token belongs to: a token is never reused after the session changes. */
  tokenStore?: TokenStore;
  /** Milliseconds since the epoch; defaults to `Date.now`, looked up at each call. */
  now?: () => number;
}

const tokenAnswer = z
  .object({
    token: z.string().min(1).optional(),
    jwt: z.string().min(1).optional(),
    expires_at: z.string().optional(),
    expires_in: z.number().positive().optional(),
  })
  .loose();

interface CachedToken {
  token: string;
  /** Epoch milliseconds; `undefined` when neither the answer nor the token said (used once, not cached). */
  expiresAt: number | undefined;
  session: string | null;
}

/** The `exp` claim of a JWT in epoch milliseconds, read without verifying (the server verifies). */
function jwtExpiry(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const json = atob(
      payload
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(payload.length / 4) * 4, '='),
    );
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** The conversion service over a request helper. */
export function createConversionResource(
  http: HttpClient,
  options: ConversionResourceOptions = {},
): ConversionResource {
  const now = () => (options.now ?? Date.now)();
  const session = () => options.tokenStore?.getToken() ?? null;
  let cached: CachedToken | undefined;
  let pending: Promise<CachedToken> | undefined;

  const fetchToken = async (signal: AbortSignal | undefined): Promise<CachedToken> => {
    const asked = session();
    const answer = await http.post('apps/tiptap/convert/jwt/', { scope: 'convert' }, { signal });
    const parsed = tokenAnswer.safeParse(answer);
    const token = parsed.success ? (parsed.data.token ?? parsed.data.jwt) : undefined;
    if (!parsed.success || token === undefined) {
      throw new PlanwrightError({ code: ERROR_CODES.INVALID_RESPONSE, message: CONVERSION_TEXTS.noToken });
    }
    const fromAnswer =
      parsed.data.expires_at !== undefined
        ? Date.parse(parsed.data.expires_at)
        : parsed.data.expires_in !== undefined
          ? now() + parsed.data.expires_in * 1000
          : Number.NaN;
    const expiresAt = Number.isFinite(fromAnswer) ? fromAnswer : jwtExpiry(token);
    return { token, expiresAt, session: asked };
  };

  const usable = (token: CachedToken | undefined): token is CachedToken =>
    token !== undefined &&
    token.session === session() &&
    token.expiresAt !== undefined &&
    now() < token.expiresAt - TOKEN_REFRESH_MARGIN_MS;

  const getToken = async (signal: AbortSignal | undefined): Promise<string> => {
    if (usable(cached)) return cached.token;
    // Concurrent exports share one token request.
    pending ??= fetchToken(signal).finally(() => {
      pending = undefined;
    });
    const fresh = await pending;
    cached = fresh;
    return fresh.token;
  };

  const send = async (
    token: string,
    content: DocumentJson,
    format: ConversionFormat,
    call: ConversionOptions,
  ) => {
    let headers: Headers | undefined;
    const bytes = await http.post(
      'apps/tiptap/convert/export/',
      { content, format, title: call.title ?? '' },
      {
        // The bearer token stands in for the session: a refused one must not sign the user out.
        auth: false,
        headers: { authorization: `Bearer ${token}` },
        responseType: 'bytes',
        signal: call.signal,
        onHeaders: (answer) => {
          headers = answer;
        },
      },
    );
    return exportedFile(format, headers, bytes as Uint8Array, call.title ?? '');
  };

  return {
    clearToken: () => {
      cached = undefined;
    },
    exportDocument: async (content, format, call = {}) => {
      const token = await getToken(call.signal);
      try {
        return await send(token, content, format, call);
      } catch (error) {
        if (!(ApiError.isInstance(error) && error.status === 401)) throw error;
        // Spec 001 §7: on a refused token, one new token and one more try.
        if (cached?.token === token) cached = undefined;
        return send(await getToken(call.signal), content, format, call);
      }
    },
  };
}
