import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, loadConfig } from '@planwright/server';
import type { FastifyInstance } from 'fastify';
import { seedEmbeddedDatabase } from '../../packages/server/test/support/embedded-database-template.js';

/** A real server listening on loopback, with its Fastify instance (for its route table). */
export interface ListeningApp {
  app: FastifyInstance;
  /** `http://127.0.0.1:{port}` */
  url: string;
  outboxDir: string;
  close(): Promise<void>;
}

/**
 * Like `startTestServer` (real storage, mailer and the built web app), but keeps the app: the security
 * suite reads its route table to prove every route has an authorisation-matrix entry.
 */
export async function startListeningApp(env: Record<string, string> = {}): Promise<ListeningApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'planwright-listening-app-'));
  const config = loadConfig({ PLANWRIGHT_DATA_DIR: dataDir, LOG_LEVEL: 'warn', PORT: '0', ...env });
  await seedEmbeddedDatabase(config.database);
  const app = await createServer(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('the app is not listening on a TCP port');
  return {
    app,
    url: `http://127.0.0.1:${address.port}`,
    outboxDir: config.mail.outboxDir,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
