import { isIP } from 'node:net';
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { packagePath } from '../package-paths.js';
import {
  DEFAULT_PRICING_PLANS,
  PLACEHOLDER_COMPANY_NAME,
  pricingPlansSchema,
  type SiteSettings,
} from '../site/site-settings.js';
import { globalSystemPromptText } from '../system-prompt/global-system-prompt.js';

/** The web search services the `web_search` tool speaks to (docs/deployment.md, "Tools"). */
export const SEARCH_PROVIDERS = ['tavily', 'brave', 'searxng'] as const;

const port = z.coerce.number().int().min(0).max(65_535);

const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);
const optionalString = z.preprocess(emptyAsUndefined, z.string().trim().min(1).optional());

// proxy-addr's names for address ranges, as Fastify's trustProxy takes them.
const TRUST_PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const isTrustedProxyEntry = (entry: string) => {
  if (TRUST_PROXY_RANGES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits <= (version === 4 ? 32 : 128);
};
/** TRUST_PROXY: a hop count (1–10), or addresses, CIDRs and range names separated by commas. */
const trustProxySchema = z.union([
  z.string().trim().regex(/^\d+$/).transform(Number).pipe(z.number().int().min(1).max(10)),
  z
    .string()
    .transform((value) => value.split(',').map((entry) => entry.trim()))
    .refine((entries) => entries.length > 0 && entries.every(isTrustedProxyEntry), {
      message:
        'must be a hop count (1–10) or addresses and CIDRs separated by commas (loopback, linklocal and uniquelocal name ranges)',
    }),
]);

const httpUrl = z
  .string()
  .trim()
  .refine((value) => /^https?:\/\/[^\s]+$/i.test(value) && URL.canParse(value), {
    message: 'must be an http:// or https:// URL',
  });

/** Environment variables the server reads, with defaults. Documented in docs/deployment.md. */
const envSchema = z.object({
  PORT: z.preprocess(emptyAsUndefined, port.default(8787)),
  HOST: z.preprocess(emptyAsUndefined, z.string().trim().min(1).default('127.0.0.1')),
  PUBLIC_URL: z.preprocess(emptyAsUndefined, httpUrl.optional()),
  PLANWRIGHT_DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default('./data')),
  DATABASE_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .trim()
      .refine((value) => /^postgres(ql)?:\/\//i.test(value) && URL.canParse(value), {
        message: 'must be a postgres:// or postgresql:// URL',
      })
      .optional(),
  ),
  PLANWRIGHT_WEB_DIR: optionalString,
  LOG_LEVEL: z.preprocess(
    emptyAsUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  LOG_FORMAT: z.preprocess(
    (value) => (typeof value === 'string' ? value.trim().toLowerCase() || undefined : value),
    z.enum(['auto', 'json', 'pretty']).default('auto'),
  ),
  SMTP_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .trim()
      .refine((value) => /^smtps?:\/\//i.test(value) && URL.canParse(value), {
        message: 'must be an smtp:// or smtps:// URL',
      })
      .optional(),
  ),
  MAIL_FROM: z.preprocess(
    emptyAsUndefined,
    z.string().trim().min(3).default('Planwright <no-reply@planwright.localhost>'),
  ),
  CONTACT_EMAIL: z.preprocess(emptyAsUndefined, z.email().default('contact@planwright.localhost')),
  STRIPE_PUBLIC_KEY: optionalString,
  STRIPE_PRICING_TABLE_ID: optionalString,
  PRICING_PLANS: optionalString,
  COMPANY_NAME: z.preprocess(emptyAsUndefined, z.string().trim().min(1).max(200).optional()),
  COMPANY_EMAIL: z.preprocess(emptyAsUndefined, z.email().optional()),
  COMPANY_ADDRESS: z.preprocess(emptyAsUndefined, z.string().trim().min(1).max(500).optional()),
  COMPANY_JURISDICTION: z.preprocess(emptyAsUndefined, z.string().trim().min(1).max(200).optional()),
  TERMS_URL: z.preprocess(emptyAsUndefined, httpUrl.optional()),
  PRIVACY_URL: z.preprocess(emptyAsUndefined, httpUrl.optional()),
  TRUST_PROXY: z.preprocess(emptyAsUndefined, trustProxySchema.optional()),
  SHUTDOWN_TIMEOUT_MS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(0).max(600_000).default(10_000),
  ),
  CONVERSION_TIMEOUT_MS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(100).max(600_000).default(10_000),
  ),
  CONVERSION_MAX_TIMEOUT_MS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(100).max(3_600_000).default(120_000),
  ),
  CONVERSION_MEMORY_MB: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(32).max(16_384).default(256),
  ),
  CONVERSION_MAX_MEMORY_MB: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(32).max(65_536).default(1536),
  ),
  CONVERSION_QUEUE_TIMEOUT_MS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(100).max(600_000).default(30_000),
  ),
  CONVERSION_MAX_PER_USER: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(1).max(1000).default(4),
  ),
  CONVERSION_WORKERS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(64).optional()),
  LIVE_DOCUMENTS: z.preprocess(
    (value) => (typeof value === 'string' ? value.trim().toLowerCase() || undefined : value),
    z.enum(['on', 'off']).default('on'),
  ),
  REDIS_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .trim()
      .refine(
        (value) => /^rediss?:\/\//i.test(value) && URL.canParse(value) && new URL(value).hostname !== '',
        {
          message: 'must be a redis:// or rediss:// URL with a host',
        },
      )
      .optional(),
  ),
  VERSION_RETENTION_DAYS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(1).max(36_500).default(90),
  ),
  LIVE_DERIVE_DEBOUNCE_MS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(0).max(600_000).default(2_000),
  ),
  LIVE_DERIVE_MAX_DEBOUNCE_MS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(0).max(3_600_000).default(10_000),
  ),
  LIVE_MAX_DOCUMENTS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(1).max(100_000).default(500),
  ),
  IMPORT_MAX_MB: z.preprocess(emptyAsUndefined, z.coerce.number().positive().max(1024).default(20)),
  IMPORT_MAX_UNPACKED_MB: z.preprocess(emptyAsUndefined, z.coerce.number().positive().max(4096).default(50)),
  SESSION_IDLE_TIMEOUT_HOURS: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number()
      .positive()
      .max(24 * 366)
      .default(336),
  ),
  SESSION_MAX_AGE_HOURS: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number()
      .positive()
      .max(24 * 366 * 5)
      .default(720),
  ),
  TURNSTILE_SECRET: optionalString,
  TURNSTILE_VERIFY_URL: z.preprocess(
    emptyAsUndefined,
    httpUrl.default('https://challenges.cloudflare.com/turnstile/v0/siteverify'),
  ),
  OIDC_ISSUER: z.preprocess(
    emptyAsUndefined,
    httpUrl
      .refine(isSecureOrLoopback, { message: 'must be an https:// URL (http:// only for localhost)' })
      .optional(),
  ),
  OIDC_CLIENT_ID: optionalString,
  OIDC_CLIENT_SECRET: optionalString,
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  PLANWRIGHT_GLOBAL_SYSTEM_PROMPT: z.preprocess(emptyAsUndefined, globalSystemPromptText.optional()),
  PLANWRIGHT_AI_PROVIDER: z.preprocess(
    (value) => (typeof value === 'string' ? value.trim().toLowerCase() || undefined : value),
    z.enum(['openai', 'anthropic', 'openai-compatible', 'offline']).default('offline'),
  ),
  PLANWRIGHT_AI_MODEL: optionalString,
  PLANWRIGHT_AI_BASE_URL: z.preprocess(emptyAsUndefined, httpUrl.optional()),
  PLANWRIGHT_AI_API_KEY: optionalString,
  PLANWRIGHT_AI_TIMEOUT_MS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(1000).max(600_000).default(120_000),
  ),
  PLANWRIGHT_AI_MAX_RETRIES: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(0).max(10).default(2),
  ),
  PLANWRIGHT_AI_CONTEXT_TOKENS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(1000).max(2_000_000).default(24_000),
  ),
  PLANWRIGHT_AI_CALLS_PER_MINUTE: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(1).max(100_000).default(20),
  ),
  CHAT_SOCKETS_PER_USER: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(1).max(10_000).default(20),
  ),
  PLANWRIGHT_MCP_ALLOWED_URLS: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .transform((value) =>
        value
          .split(',')
          .map((entry) => entry.trim())
          .filter((entry) => entry !== ''),
      )
      .refine(
        (entries) => entries.every((entry) => /^https?:\/\/[^\s]+$/i.test(entry) && URL.canParse(entry)),
        {
          message: 'must be http:// or https:// origins or URL prefixes separated by commas',
        },
      )
      .optional(),
  ),
  PLANWRIGHT_MCP_ALLOW_PRIVATE_NETWORK: z.preprocess(
    emptyAsUndefined,
    z.enum(['true', 'false']).default('false'),
  ),
  PLANWRIGHT_SEARCH_PROVIDER: z.preprocess(
    (value) => (typeof value === 'string' ? value.trim().toLowerCase() || undefined : value),
    z.enum(SEARCH_PROVIDERS).optional(),
  ),
  PLANWRIGHT_SEARCH_URL: z.preprocess(emptyAsUndefined, httpUrl.optional()),
  PLANWRIGHT_SEARCH_API_KEY: optionalString,
});

/** Google's issuer: what "Google sign-in" talks to unless OIDC_ISSUER names another. */
export const GOOGLE_ISSUER = 'https://accounts.google.com';

// Tokens and client secrets travel to the issuer: plain http is only acceptable on this machine (tests).
function isSecureOrLoopback(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (
    url.protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname.toLowerCase())
  );
}

/** The OpenID Connect provider behind "Sign in with Google" (docs/auth.md). */
export interface OidcProviderConfig {
  /** The id the API and the web app use: the flow is the spec's Google sign-in, whatever the issuer. */
  id: 'google';
  name: string;
  /** Issuer identifier, exactly as the provider's discovery document states it. */
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** The server's validated configuration. */
/** How files are converted: in worker threads, each job killed after `timeoutMs`. */
export interface ConversionConfig {
  /** The time limit of the smallest conversion; larger files get more, up to `maxTimeoutMs`. */
  timeoutMs: number;
  /** The most time any conversion gets, however large its file. */
  maxTimeoutMs: number;
  /** The heap limit (MB) of the smallest conversion; larger files get more, up to `maxMemoryMb`. */
  memoryMb: number;
  /** The most heap (MB) any conversion gets, however large its file. */
  maxMemoryMb: number;
  /** How long a conversion may wait for a free worker (apart from its running time). */
  queueTimeoutMs: number;
  /** Conversions one user may have waiting and running at once; more answer 429. */
  maxPerUser: number;
  /** How many worker threads convert at once; default: one per CPU core beyond the first, at least 1. */
  workers: number | undefined;
  /** The largest file an import takes. */
  importMaxBytes: number;
  /** How far a .docx may unpack (counted while inflating). */
  maxUnpackedBytes: number;
}

/** Which AI answers (`docs/deployment.md`, "AI"): a model through the AI SDK, or the offline drafter. */
export interface AiConfig {
  provider: 'openai' | 'anthropic' | 'openai-compatible' | 'offline';
  /** The model id; each provider has a default. */
  model: string;
  /** The API's base URL (required for openai-compatible; optional for the others). */
  baseUrl: string | undefined;
  apiKey: string | undefined;
  /** One call (a chat answer or a transform) is cancelled after this long. */
  timeoutMs: number;
  /** Retries on 429 and 5xx before the first byte, with exponential backoff. */
  maxRetries: number;
  /** The context engine's budget for one prompt, in tokens. */
  contextTokens: number;
  /** AI calls (chat messages and transforms) one user may start per minute, across every instance. */
  callsPerMinute: number;
  /** The web search service behind the `web_search` tool; null when none is configured. */
  search: SearchConfig | null;
  /** Which MCP servers a section may name, and whether they may be on a private network. */
  mcp: McpConfig;
}

/** A web search service (`PLANWRIGHT_SEARCH_*`). */
export interface SearchConfig {
  provider: (typeof SEARCH_PROVIDERS)[number];
  /** The service's base URL (required for searxng; the public API for the others). */
  baseUrl: string;
  apiKey: string | undefined;
}

/** The admin's rules for MCP servers (`PLANWRIGHT_MCP_*`). */
export interface McpConfig {
  /** Origins or URL prefixes a section's `mcp_url` must fall under; empty: MCP is off. */
  allowedUrls: string[];
  /** Lets MCP URLs reach loopback and private addresses, and use http:// (development and tests only). */
  allowPrivateNetwork: boolean;
}

/** Where each search service answers when PLANWRIGHT_SEARCH_URL is not set (searxng has no public one). */
export const DEFAULT_SEARCH_URLS: Record<SearchConfig['provider'], string | undefined> = {
  tavily: 'https://api.tavily.com',
  brave: 'https://api.search.brave.com',
  searxng: undefined,
};

/** Each provider's model when PLANWRIGHT_AI_MODEL is not set. */
export const DEFAULT_AI_MODELS: Record<AiConfig['provider'], string> = {
  openai: 'gpt-4.1-mini',
  anthropic: 'claude-sonnet-4-5',
  'openai-compatible': 'llama3.1',
  offline: 'offline-drafter',
};

export interface ServerConfig {
  port: number;
  host: string;
  /** The URL users reach the server at; links in e-mails point here. */
  publicUrl: string;
  /** Absolute path of the data directory (embedded database, outbox). */
  dataDir: string;
  /** `postgres` when DATABASE_URL is set, else the embedded PGlite in `dataDir/pglite`. */
  database: { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string };
  /** Absolute path of the built web app, served at `/`. */
  webDir: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** LOG_FORMAT: `auto` writes readable lines on a terminal and JSON lines anywhere else. */
  logFormat: 'auto' | 'json' | 'pretty';
  mail: { smtpUrl: string | undefined; from: string; outboxDir: string };
  contactEmail: string;
  stripe: { publicKey: string; pricingTableId: string } | undefined;
  /** The public site: the operator's details on the legal pages, where those live, the pricing plans. */
  site: SiteSettings;
  shutdownTimeoutMs: number;
  /**
   * Which proxies in front of the server to believe about the client's address (`X-Forwarded-For`), as
   * Fastify's `trustProxy`: a hop count or addresses/CIDRs; `false` believes none (the default).
   */
  trustProxy: number | string[] | false;
  /** Imports and exports (`docs/deployment.md`): worker threads, time limit, sizes. */
  conversion: ConversionConfig;
  sessions: { idleTimeoutMs: number; maxAgeMs: number; secureCookies: boolean };
  /** Captcha on sign-up, when a secret is set. */
  turnstile: { secret: string; verifyUrl: string } | undefined;
  /** Google sign-in (OpenID Connect), when a client is configured. */
  oidc: OidcProviderConfig | undefined;
  /** PLANWRIGHT_GLOBAL_SYSTEM_PROMPT: while set, it wins over the prompt stored in the database. */
  globalSystemPrompt: string | undefined;
  /** The AI provider and its limits. */
  ai: AiConfig;
  /** CHAT_SOCKETS_PER_USER: chat sockets one user may hold open on this instance; more are closed with 4429. */
  chatSocketsPerUser: number;
  /** VERSION_RETENTION_DAYS: how long automatic versions are kept (named ones are kept for ever; docs/versions.md). */
  versionRetentionMs: number;
  /**
   * Live plans (docs/editor.md "Live plans"): the Yjs sync socket at `/ws/collab/`, on by default
   * (LIVE_DOCUMENTS=off saves documents whole over REST instead); when and how often content is derived; how many
   * plans one instance holds open at most (LIVE_MAX_DOCUMENTS: a 50-page plan holds about 3 MiB).
   */
  live: {
    enabled: boolean;
    deriveDebounceMs: number;
    deriveMaxDebounceMs: number;
    maxDocuments: number;
    /** REDIS_URL: instances share live plans through Redis (src/live/SPEC.md LR1–LR6); unset, one instance serves them. */
    redisUrl: string | undefined;
  };
}

/** A configuration value is wrong; the message names the variable and says what it must be. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
}

// The web app's build, beside the server in the monorepo.
const HOUR_MS = 60 * 60 * 1000;

const defaultWebDir = packagePath('../web/dist');

/**
 * Reads the configuration from environment variables. Throws {@link ConfigError} naming every bad
 * variable, so a typo fails at start instead of at the first request.
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  cwd = process.cwd(),
): ServerConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? 'environment');
        const value = env[name];
        const shown =
          value === undefined
            ? ''
            : ` (got ${JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)})`;
        return `${name}: ${issue.message}${shown}`;
      }),
    );
  }
  const e = parsed.data;
  const problems: string[] = [];
  if (Boolean(e.STRIPE_PUBLIC_KEY) !== Boolean(e.STRIPE_PRICING_TABLE_ID)) {
    problems.push('STRIPE_PUBLIC_KEY and STRIPE_PRICING_TABLE_ID must be set together');
  }
  const pairs = [
    ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'],
    ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'],
  ] as const;
  for (const [id, secret] of pairs) {
    if (Boolean(e[id]) !== Boolean(e[secret])) problems.push(`${id} and ${secret} must be set together`);
  }
  if (e.OIDC_CLIENT_ID && e.GOOGLE_CLIENT_ID) {
    problems.push('set OIDC_CLIENT_ID/OIDC_CLIENT_SECRET or GOOGLE_CLIENT_ID/GOOGLE_CLIENT_SECRET, not both');
  }
  if (e.OIDC_ISSUER && !e.OIDC_CLIENT_ID) {
    problems.push('OIDC_ISSUER needs OIDC_CLIENT_ID and OIDC_CLIENT_SECRET');
  }
  if (e.PLANWRIGHT_AI_PROVIDER === 'openai-compatible' && !e.PLANWRIGHT_AI_BASE_URL) {
    problems.push('PLANWRIGHT_AI_PROVIDER=openai-compatible needs PLANWRIGHT_AI_BASE_URL');
  }
  if (
    (e.PLANWRIGHT_AI_PROVIDER === 'openai' || e.PLANWRIGHT_AI_PROVIDER === 'anthropic') &&
    !e.PLANWRIGHT_AI_API_KEY
  ) {
    problems.push(`PLANWRIGHT_AI_PROVIDER=${e.PLANWRIGHT_AI_PROVIDER} needs PLANWRIGHT_AI_API_KEY`);
  }
  if (e.PLANWRIGHT_SEARCH_PROVIDER === 'searxng' && !e.PLANWRIGHT_SEARCH_URL) {
    problems.push('PLANWRIGHT_SEARCH_PROVIDER=searxng needs PLANWRIGHT_SEARCH_URL');
  }
  if (
    (e.PLANWRIGHT_SEARCH_PROVIDER === 'tavily' || e.PLANWRIGHT_SEARCH_PROVIDER === 'brave') &&
    !e.PLANWRIGHT_SEARCH_API_KEY
  ) {
    problems.push(
      `PLANWRIGHT_SEARCH_PROVIDER=${e.PLANWRIGHT_SEARCH_PROVIDER} needs PLANWRIGHT_SEARCH_API_KEY`,
    );
  }
  if (!e.PLANWRIGHT_SEARCH_PROVIDER && (e.PLANWRIGHT_SEARCH_URL || e.PLANWRIGHT_SEARCH_API_KEY)) {
    problems.push('PLANWRIGHT_SEARCH_URL and PLANWRIGHT_SEARCH_API_KEY need PLANWRIGHT_SEARCH_PROVIDER');
  }
  const pricingPlans =
    e.PRICING_PLANS === undefined ? DEFAULT_PRICING_PLANS : parsePricingPlans(e.PRICING_PLANS);
  if (typeof pricingPlans === 'string') problems.push(`PRICING_PLANS: ${pricingPlans}`);
  if (problems.length > 0 || typeof pricingPlans === 'string') throw new ConfigError(problems);

  const dataDir = isAbsolute(e.PLANWRIGHT_DATA_DIR)
    ? e.PLANWRIGHT_DATA_DIR
    : resolve(cwd, e.PLANWRIGHT_DATA_DIR);
  const shownHost = e.HOST === '0.0.0.0' || e.HOST === '::' ? 'localhost' : e.HOST;
  const publicUrl = (
    e.PUBLIC_URL ?? `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${e.PORT}`
  ).replace(/\/+$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    dataDir,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL }
      : { kind: 'pglite', dataDir: resolve(dataDir, 'pglite') },
    webDir: e.PLANWRIGHT_WEB_DIR ? resolve(cwd, e.PLANWRIGHT_WEB_DIR) : defaultWebDir,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM, outboxDir: resolve(dataDir, 'outbox') },
    contactEmail: e.CONTACT_EMAIL,
    stripe:
      e.STRIPE_PUBLIC_KEY && e.STRIPE_PRICING_TABLE_ID
        ? { publicKey: e.STRIPE_PUBLIC_KEY, pricingTableId: e.STRIPE_PRICING_TABLE_ID }
        : undefined,
    site: {
      company: {
        name: e.COMPANY_NAME ?? PLACEHOLDER_COMPANY_NAME,
        email: e.COMPANY_EMAIL ?? e.CONTACT_EMAIL,
        address: e.COMPANY_ADDRESS,
        jurisdiction: e.COMPANY_JURISDICTION,
        configured: e.COMPANY_NAME !== undefined,
      },
      termsUrl: e.TERMS_URL,
      privacyUrl: e.PRIVACY_URL,
      pricingPlans,
    },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    trustProxy: e.TRUST_PROXY ?? false,
    conversion: {
      timeoutMs: e.CONVERSION_TIMEOUT_MS,
      maxTimeoutMs: Math.max(e.CONVERSION_TIMEOUT_MS, e.CONVERSION_MAX_TIMEOUT_MS),
      memoryMb: e.CONVERSION_MEMORY_MB,
      maxMemoryMb: Math.max(e.CONVERSION_MEMORY_MB, e.CONVERSION_MAX_MEMORY_MB),
      queueTimeoutMs: e.CONVERSION_QUEUE_TIMEOUT_MS,
      maxPerUser: e.CONVERSION_MAX_PER_USER,
      workers: e.CONVERSION_WORKERS,
      importMaxBytes: Math.round(e.IMPORT_MAX_MB * 1024 * 1024),
      maxUnpackedBytes: Math.round(e.IMPORT_MAX_UNPACKED_MB * 1024 * 1024),
    },
    sessions: {
      idleTimeoutMs: e.SESSION_IDLE_TIMEOUT_HOURS * HOUR_MS,
      maxAgeMs: e.SESSION_MAX_AGE_HOURS * HOUR_MS,
      secureCookies: publicUrl.startsWith('https:'),
    },
    turnstile: e.TURNSTILE_SECRET
      ? { secret: e.TURNSTILE_SECRET, verifyUrl: e.TURNSTILE_VERIFY_URL }
      : undefined,
    oidc: oidcProviderOf(e),
    globalSystemPrompt: e.PLANWRIGHT_GLOBAL_SYSTEM_PROMPT,
    versionRetentionMs: e.VERSION_RETENTION_DAYS * 24 * HOUR_MS,
    live: {
      enabled: e.LIVE_DOCUMENTS === 'on',
      deriveDebounceMs: e.LIVE_DERIVE_DEBOUNCE_MS,
      deriveMaxDebounceMs: Math.max(e.LIVE_DERIVE_DEBOUNCE_MS, e.LIVE_DERIVE_MAX_DEBOUNCE_MS),
      maxDocuments: e.LIVE_MAX_DOCUMENTS,
      redisUrl: e.REDIS_URL,
    },
    ai: {
      provider: e.PLANWRIGHT_AI_PROVIDER,
      model: e.PLANWRIGHT_AI_MODEL ?? DEFAULT_AI_MODELS[e.PLANWRIGHT_AI_PROVIDER],
      baseUrl: e.PLANWRIGHT_AI_BASE_URL,
      apiKey: e.PLANWRIGHT_AI_API_KEY,
      timeoutMs: e.PLANWRIGHT_AI_TIMEOUT_MS,
      maxRetries: e.PLANWRIGHT_AI_MAX_RETRIES,
      contextTokens: e.PLANWRIGHT_AI_CONTEXT_TOKENS,
      callsPerMinute: e.PLANWRIGHT_AI_CALLS_PER_MINUTE,
      search: searchConfigOf(e),
      mcp: {
        allowedUrls: e.PLANWRIGHT_MCP_ALLOWED_URLS ?? [],
        allowPrivateNetwork: e.PLANWRIGHT_MCP_ALLOW_PRIVATE_NETWORK === 'true',
      },
    },
    chatSocketsPerUser: e.CHAT_SOCKETS_PER_USER,
  };
}

/** PRICING_PLANS as plans, or a sentence saying what is wrong with it. */
function parsePricingPlans(text: string): SiteSettings['pricingPlans'] | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'must be a JSON array of plans (see docs/deployment.md)';
  }
  const parsed = pricingPlansSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
  return `not a valid list of 1–6 plans${where}: ${issue?.message ?? 'invalid'}`;
}

function searchConfigOf(e: z.output<typeof envSchema>): SearchConfig | null {
  const provider = e.PLANWRIGHT_SEARCH_PROVIDER;
  const baseUrl = e.PLANWRIGHT_SEARCH_URL ?? (provider ? DEFAULT_SEARCH_URLS[provider] : undefined);
  if (!provider || !baseUrl) return null;
  return { provider, baseUrl: baseUrl.replace(/\/+$/, ''), apiKey: e.PLANWRIGHT_SEARCH_API_KEY };
}

function oidcProviderOf(e: z.output<typeof envSchema>): OidcProviderConfig | undefined {
  const clientId = e.OIDC_CLIENT_ID ?? e.GOOGLE_CLIENT_ID;
  const clientSecret = e.OIDC_CLIENT_SECRET ?? e.GOOGLE_CLIENT_SECRET;
  if (!clientId || !clientSecret) return undefined;
  return { id: 'google', name: 'Google', issuer: e.OIDC_ISSUER ?? GOOGLE_ISSUER, clientId, clientSecret };
}
