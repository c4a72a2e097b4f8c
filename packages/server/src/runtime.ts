import type { FastifyInstance } from 'fastify';
import { type AppDependencies, buildApp } from './app.js';
import type { ServerConfig } from './config/config.js';
import { scheduleMaintenance } from './lifecycle/maintenance.js';
import { createMailer } from './mail/mailer.js';
import { openStorage } from './storage/storage.js';

/**
 * Opens the real storage (running migrations) and mailer, and builds the app around them. Closing
 * the app closes both. Nothing listens yet. Tests may pass a clock.
 */
export async function createServer(
  config: ServerConfig,
  options: Pick<AppDependencies, 'now'> = {},
): Promise<FastifyInstance> {
  const storage = await openStorage(config.database);
  let app: FastifyInstance | undefined;
  const mailer = createMailer({
    smtpUrl: config.mail.smtpUrl,
    from: config.mail.from,
    outboxDir: config.mail.outboxDir,
    onOutboxMessage: ({ file, to, subject }) =>
      app?.log.info({ file, to, subject }, `e-mail written to ${file}: ${subject}`),
  });
  let stopMaintenance = () => {};
  const closeOwn = async () => {
    stopMaintenance();
    mailer.close();
    await storage.close();
  };
  try {
    app = await buildApp({ config, storage, mailer, ...options, onClosed: closeOwn });
  } catch (error) {
    await closeOwn();
    throw error;
  }
  stopMaintenance = scheduleMaintenance({
    storage,
    sessions: config.sessions,
    now: () => new Date(),
    log: app.log,
  });
  return app;
}
