import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, loadConfig } from '@planwright/server';

/** A real Planwright server on a random loopback port, with its own data directory. */
export interface TestServer {
  /** `http://127.0.0.1:{port}` */
  url: string;
  dataDir: string;
  outboxDir: string;
  close(): Promise<void>;
}

/**
 * Starts the real server (real embedded database, real mailer writing to the outbox, the built web app
 * from packages/web/dist) in this process, listening on 127.0.0.1 on a free port.
 */
export async function startTestServer(options: { env?: Record<string, string> } = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'planwright-test-server-'));
  const config = loadConfig({ PLANWRIGHT_DATA_DIR: dataDir, LOG_LEVEL: 'warn', PORT: '0', ...options.env });
  const app = await createServer(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('test server is not listening on a TCP port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    dataDir,
    outboxDir: config.mail.outboxDir,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
