import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { AiRuntime } from './ai/ai-runtime.js';
import { createAiUsageLedger } from './ai/ai-usage-ledger.js';
import type { AiProvider } from './ai/providers/ai-provider.js';
import { createProvider } from './ai/providers/create-provider.js';
import { AccountMailer } from './auth/account-mailer.js';
import { OidcClient } from './auth/oidc/oidc-client.js';
import { SocialSignIn } from './auth/oidc/social-sign-in.js';
import { createPasswordHasher, type PasswordHasher } from './auth/password/index.js';
import { SessionService } from './auth/session-service.js';
import { seedDefaultBlueprint } from './blueprints/seed-default-blueprint.js';
import { MENTION_DIGEST_INTERVAL_MS, MentionDigests } from './comments/mention-digests.js';
import type { ServerConfig } from './config/config.js';
import { HOURLY_VERSION_MS } from './documents/write-document.js';
import { ConversionPool, type PoolTimers, SYSTEM_TIMERS } from './formats/conversion-pool.js';
import { ConversionTokens } from './formats/conversion-tokens.js';
import { registerClosingConnections } from './http/closing-connections.js';
import { registerCompression } from './http/compression.js';
import { registerErrorHandling } from './http/error-handling.js';
import { registerJsonBodyParser } from './http/json-body-parser.js';
import { withLogRedaction } from './http/log-redaction.js';
import { chooseLogFormat, loggerOptions, RequestLogController } from './http/request-logging.js';
import { recordRoutes } from './http/route-table.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { fastifyTrustProxy } from './http/trust-proxy.js';
import { registerWebApp } from './http/web-app.js';
import { LiveDocuments } from './live/live-documents.js';
import type { Mailer } from './mail/mailer.js';
import { SERVER_VERSION } from './package-paths.js';
import { accountRoutes } from './routes/account-routes.js';
import { accountSecurityRoutes } from './routes/account-security-routes.js';
import { activityRoutes } from './routes/activity-routes.js';
import { aiAttachmentRoutes } from './routes/ai-attachment-routes.js';
import { aiContextRoutes } from './routes/ai-context-routes.js';
import { aiRoutes } from './routes/ai-routes.js';
import { aiTransformRoutes } from './routes/ai-transform-routes.js';
import { allauthRoutes } from './routes/allauth-routes.js';
import { blueprintRoutes } from './routes/blueprint-routes.js';
import { chatRoutes } from './routes/chat-routes.js';
import { chatSocketRoutes } from './routes/chat-socket-routes.js';
import { commentRoutes } from './routes/comment-routes.js';
import { contactRoutes } from './routes/contact-routes.js';
import { documentMemberRoutes } from './routes/document-member-routes.js';
import { documentRoutes } from './routes/document-routes.js';
import { documentVersionRoutes } from './routes/document-version-routes.js';
import { fileRoutes } from './routes/file-routes.js';
import { healthRoutes } from './routes/health-routes.js';
import { invitationRoutes } from './routes/invitation-routes.js';
import { liveSocketRoutes } from './routes/live-socket-routes.js';
import { OIDC_CALLBACK_PATH, oidcRoutes } from './routes/oidc-routes.js';
import { organizationRoutes } from './routes/organization-routes.js';
import { sectionRoutes } from './routes/section-routes.js';
import { shareLinkRoutes } from './routes/share-link-routes.js';
import { sharePageRoutes } from './routes/share-page-routes.js';
import { siteRoutes } from './routes/site-routes.js';
import { systemPromptRoutes } from './routes/system-prompt-routes.js';
import { twoFactorRoutes } from './routes/two-factor-routes.js';
import type { Storage } from './storage/storage.js';

/** What the app is built from. Tests pass their own; `createServer` opens the real ones. */
export interface AppDependencies {
  config: ServerConfig;
  storage: Storage;
  mailer: Mailer;
  /** The clock; injected by tests. */
  now?: () => Date;
  /** Password hashing; the default uses the production scrypt parameters. Tests may pass cheaper ones. */
  passwordHasher?: PasswordHasher;
  /** Fastify's logger option; defaults to pino at `config.logLevel`, in `config.logFormat` on stdout. */
  logger?: FastifyServerOptions['logger'];
  /** Where conversions run; the default is a pool sized by `config.conversion`, closed with the app. */
  conversions?: ConversionPool;
  /** The timers of the import's progress stream (its heartbeat); tests pass manual ones. */
  timers?: PoolTimers;
  /** Who answers chats and transforms; the default is made from `config.ai`. */
  aiProvider?: AiProvider;
  /**
   * Runs when the app closes, after everything the app closes itself: the caller's storage must outlive the
   * live documents' last derive and the work in flight.
   */
  onClosed?: () => Promise<void>;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Builds the Fastify application: every plugin and route, nothing listening. `server.ts` listens;
 * tests call `inject` or `listen({ port: 0 })`. The caller owns `storage` and `mailer`.
 */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const { config } = deps;
  const now = deps.now ?? (() => new Date());
  const app = Fastify({
    // Tokens, keys and credential headers never reach a log line (docs/security.md).
    logger: withLogRedaction(
      deps.logger ??
        loggerOptions(config.logLevel, chooseLogFormat(process.stdout.isTTY === true, config.logFormat)),
      config.logLevel,
    ),
    // One line per request, health probes at debug.
    logController: new RequestLogController(),
    routerOptions: { ignoreTrailingSlash: true },
    bodyLimit: 1024 * 1024,
    // On close, idle keep-alive sockets go at once; requests in flight are allowed to finish.
    forceCloseConnections: 'idle',
    // Behind a load balancer the client's address comes from X-Forwarded-For, from the proxies named only.
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // Read in genReqId instead: Fastify would take the header as it is, unchecked.
    requestIdHeader: false,
    // A caller's id is kept when it is safe to log; otherwise a fresh one is made.
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
  });

  // Fastify runs onClose hooks last-added first: this one, added first, runs after all the others.
  const { onClosed } = deps;
  if (onClosed) app.addHook('onClose', async () => onClosed());
  // The security suite checks every route against its authorisation matrix (docs/security.md).
  recordRoutes(app);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerClosingConnections(app);
  registerSecurityHeaders(app, { publicUrl: config.publicUrl, webDir: config.webDir });
  registerErrorHandling(app);
  registerJsonBodyParser(app);

  await app.register(fastifyCookie);
  await app.register(fastifyFormbody, { bodyLimit: 64 * 1024 });
  // Before every route: the plugin hooks the routes added after it.
  await registerCompression(app);

  const { storage, mailer } = deps;
  const sessions = new SessionService(storage, config.sessions, now);
  const accountMailer = new AccountMailer({ config, storage, mailer, now, log: app.log });

  healthRoutes(app, { storage, version: SERVER_VERSION });
  const passwordHasher = deps.passwordHasher ?? createPasswordHasher();
  // Google sign-in, when a client is configured; the provider is discovered on the first sign-in.
  const signIn = config.oidc
    ? new SocialSignIn({
        provider: config.oidc,
        publicUrl: config.publicUrl,
        storage,
        now,
        log: app.log,
        client: new OidcClient({
          provider: config.oidc,
          redirectUri: `${config.publicUrl}${OIDC_CALLBACK_PATH}`,
          log: app.log,
        }),
      })
    : undefined;
  const providers = signIn ? [signIn.providerId] : [];
  allauthRoutes(app, { config, storage, sessions, accountMailer, now, providers, passwordHasher });
  accountSecurityRoutes(app, { config, storage, sessions, accountMailer, now, providers, passwordHasher });
  twoFactorRoutes(app, { config, storage, sessions, now, providers });
  oidcRoutes(app, { config, sessions, signIn, storage });
  accountRoutes(app, { config, storage, sessions, accountMailer, now });
  siteRoutes(app, { config });
  contactRoutes(app, { config, storage: deps.storage, mailer: deps.mailer, now });
  // The default "Business Plan" is there before the first request (idempotent across instances).
  await seedDefaultBlueprint(storage, now());
  const live = config.live.enabled
    ? new LiveDocuments({
        storage,
        sessions,
        now,
        log: app.log,
        deriveDebounceMs: config.live.deriveDebounceMs,
        deriveMaxDebounceMs: config.live.deriveMaxDebounceMs,
        maxDocuments: config.live.maxDocuments,
        redisUrl: config.live.redisUrl,
      })
    : undefined;
  // LR6: without Redis each instance has its own copy of a live plan; people on two instances would not see
  // each other's typing (nothing is lost: the log and a reload merge it). Said once, loudly, at start.
  if (live && !config.live.redisUrl && config.database.kind === 'postgres') {
    app.log.warn(
      'Live plans on PostgreSQL without REDIS_URL: run ONE instance, or set REDIS_URL so instances share live plans (docs/deployment.md)',
    );
  }
  const workspace = { config, storage, sessions, now, live };
  // Large saves and import merges are parsed and normalised in threads of their own (never waiting
  // behind file conversions), with the conversions' per-user turns, queue time and budgets.
  const contentPool = new ConversionPool({
    size: config.conversion.workers ?? ConversionPool.defaultSize(),
    timeoutMs: config.conversion.timeoutMs,
    memoryMb: config.conversion.memoryMb,
    queueTimeoutMs: config.conversion.queueTimeoutMs,
    // Saves that went through one at a time before are not refused now: users take turns, no cap.
    maxPerOwner: 64,
    noun: 'save',
  });
  app.addHook('onClose', async () => contentPool.close());
  const contentWork = { pool: contentPool, config: config.conversion };
  documentRoutes(app, { ...workspace, contentWork });
  blueprintRoutes(app, workspace);
  sectionRoutes(app, workspace);
  organizationRoutes(app, { ...workspace, mailer });
  documentMemberRoutes(app, { ...workspace, mailer });
  documentVersionRoutes(app, workspace);
  // Automatic versions past their retention go once an hour (docs/versions.md); named ones stay.
  const versionSweep = setInterval(
    () =>
      void storage.documentVersions
        .pruneAutomatic(new Date(now().getTime() - config.versionRetentionMs))
        .catch((error: unknown) =>
          app.log.warn({ err: error }, 'pruning old versions failed; retried in an hour'),
        ),
    HOURLY_VERSION_MS,
  );
  versionSweep.unref();
  app.addHook('onClose', async () => clearInterval(versionSweep));
  // Mention e-mails: at once when due, else in the digest the minute's sweep sends (docs/teams.md "Comments").
  const mentions = new MentionDigests({ storage, mailer, publicUrl: config.publicUrl, now, log: app.log });
  const mentionSweep = setInterval(() => void mentions.flushDue(), MENTION_DIGEST_INTERVAL_MS);
  mentionSweep.unref();
  app.addHook('onClose', async () => clearInterval(mentionSweep));
  commentRoutes(app, { ...workspace, mentions });
  invitationRoutes(app, workspace);
  activityRoutes(app, workspace);
  systemPromptRoutes(app, workspace);
  const conversions =
    deps.conversions ??
    new ConversionPool({
      size: config.conversion.workers ?? ConversionPool.defaultSize(),
      timeoutMs: config.conversion.timeoutMs,
      memoryMb: config.conversion.memoryMb,
      queueTimeoutMs: config.conversion.queueTimeoutMs,
      maxPerOwner: config.conversion.maxPerUser,
    });
  // A pool the app made is the app's to stop; one passed in belongs to the caller.
  if (!deps.conversions) app.addHook('onClose', async () => conversions.close());
  const tokens = new ConversionTokens({ appSettings: storage.appSettings, now });
  fileRoutes(app, { ...workspace, conversions, tokens, contentWork, timers: deps.timers ?? SYSTEM_TIMERS });
  aiAttachmentRoutes(app, { ...workspace, conversions });
  shareLinkRoutes(app, { ...workspace, passwordHasher });
  sharePageRoutes(app, { ...workspace, conversions, passwordHasher });
  const ai: AiRuntime = {
    config: config.ai,
    provider: deps.aiProvider ?? (await createProvider(config.ai)),
    usage: createAiUsageLedger({ storage, callsPerMinute: config.ai.callsPerMinute, now }),
  };
  aiRoutes(app, { ...workspace, ai });
  aiTransformRoutes(app, { ...workspace, ai });
  aiContextRoutes(app, { ...workspace, ai });
  chatRoutes(app, workspace);
  await chatSocketRoutes(app, { ...workspace, ai, log: app.log });
  if (live) liveSocketRoutes(app, { live, config });

  await registerWebApp(app, config.webDir);
  return app;
}
