import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AiProvider } from '../../src/ai/providers/ai-provider.js';
import { type AppDependencies, buildApp } from '../../src/app.js';
import type { PasswordHasher } from '../../src/auth/password/index.js';
import { loadConfig, type ServerConfig } from '../../src/config/config.js';
import type { ConversionPool, PoolTimers } from '../../src/formats/conversion-pool.js';
import { createMailer, type Mailer } from '../../src/mail/mailer.js';
import { openStorage, type Storage } from '../../src/storage/storage.js';
import { seedEmbeddedDatabase } from './embedded-database-template.js';

export interface TestApp {
  app: FastifyInstance;
  storage: Storage;
  mailer: Mailer;
  config: ServerConfig;
  dir: string;
  close(): Promise<void>;
}

/** A tiny stand-in for packages/web/dist, so static serving is tested without building the web app. */
export function writeFakeWebApp(dir: string): string {
  const webDir = join(dir, 'web');
  mkdirSync(join(webDir, 'assets'), { recursive: true });
  writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>Planwright</title><div id="root"></div>');
  writeFileSync(join(webDir, 'assets', 'index-abc123.js'), 'console.log("app");');
  writeFileSync(join(webDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return webDir;
}

/**
 * The real app over a real embedded database in a fresh temp directory, with a fake web build.
 * Its PGlite is a copy of a migrated template (see {@link seedEmbeddedDatabase}), yet still takes most of a
 * second to open: create one per test file (beforeAll) where the tests allow.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  overrides: {
    mailer?: Mailer;
    now?: () => Date;
    routes?: (app: FastifyInstance) => void;
    passwordHasher?: PasswordHasher;
    conversions?: ConversionPool;
    /** The import progress stream's timers. */
    timers?: PoolTimers;
    aiProvider?: AiProvider;
    /** Fastify's logger option; the default logs nothing. */
    logger?: AppDependencies['logger'];
  } = {},
): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'planwright-server-test-'));
  const config = loadConfig({
    PLANWRIGHT_DATA_DIR: dir,
    PLANWRIGHT_WEB_DIR: writeFakeWebApp(dir),
    LOG_LEVEL: 'silent',
    ...env,
  });
  await seedEmbeddedDatabase(config.database);
  const storage = await openStorage(config.database);
  const mailer =
    overrides.mailer ??
    createMailer({ smtpUrl: undefined, from: config.mail.from, outboxDir: config.mail.outboxDir });
  const app = await buildApp({
    config,
    storage,
    mailer,
    logger: overrides.logger ?? false,
    ...(overrides.now ? { now: overrides.now } : {}),
    ...(overrides.conversions ? { conversions: overrides.conversions } : {}),
    ...(overrides.timers ? { timers: overrides.timers } : {}),
    ...(overrides.aiProvider ? { aiProvider: overrides.aiProvider } : {}),
    ...(overrides.passwordHasher ? { passwordHasher: overrides.passwordHasher } : {}),
  });
  overrides.routes?.(app);
  await app.ready();
  return {
    app,
    storage,
    mailer,
    config,
    dir,
    async close() {
      await app.close();
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
