import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type DatabaseLocation, loadConfig } from '@planwright/server';
import pg from 'pg';
import { seedEmbeddedDatabase } from '../../packages/server/test/support/embedded-database-template.js';
import { dropDatabase } from './postgres.js';

/** A real Planwright server on a random loopback port, with its own data directory. */
export interface TestServer {
  /** `http://127.0.0.1:{port}` */
  url: string;
  dataDir: string;
  outboxDir: string;
  /** Its database, for a test that reads what the server stored while it is stopped. */
  database: DatabaseLocation;
  /** Stops the server and keeps its data directory (connections refused until {@link restart}). */
  stop(): Promise<void>;
  /**
   * As {@link stop}, but first cuts every open connection, WebSockets included, without a closing frame: what
   * clients see when the process is killed (a 1006 close mid-answer). Answers in flight still finish server-side.
   */
  kill(): Promise<void>;
  /** Starts the stopped server again on the same port over the same data directory. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  env?: Record<string, string>;
  /**
   * Sets PUBLIC_URL to the server's own `http://127.0.0.1:{port}` (a free port chosen before start),
   * for flows whose URLs must point back at it (the OpenID Connect redirect URI). `env.PUBLIC_URL` wins.
   */
  ownPublicUrl?: boolean;
  /** The server's clock. */
  now?: () => Date;
  /**
   * The database: the embedded PGlite in the data directory, or a fresh database of its own on the test
   * PostgreSQL server. Defaults to `PLANWRIGHT_TEST_DATABASE` (`postgres` in the `integration-postgres`
   * project), else PGlite. `env.DATABASE_URL` wins over both.
   */
  database?: 'pglite' | 'postgres';
}

/** The database the integration suite runs on: `PLANWRIGHT_TEST_DATABASE=postgres` switches it. */
export function testDatabaseKind(): 'pglite' | 'postgres' {
  return process.env.PLANWRIGHT_TEST_DATABASE === 'postgres' ? 'postgres' : 'pglite';
}

/**
 * A new empty database on the test run's PostgreSQL server, TEST_DATABASE_URL (which the
 * integration-postgres project's global setup points at the cluster it started).
 */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl)
    throw new Error(
      'PostgreSQL tests need TEST_DATABASE_URL: run them with `--project integration-postgres`, which starts a cluster',
    );
  const name = `planwright_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => dropDatabase(adminUrl, url.toString()) };
}

/** A port nothing listens on right now (the OS picks it; it is free again when this resolves). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Starts the real server (real embedded database, real mailer writing to the outbox, the built web app
 * from packages/web/dist) in this process, listening on 127.0.0.1 on a free port.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'planwright-test-server-'));
  const port = options.ownPublicUrl ? await freePort() : 0;
  const usePostgres = (options.database ?? testDatabaseKind()) === 'postgres' && !options.env?.DATABASE_URL;
  const database = usePostgres ? await createTestDatabase() : undefined;
  const config = loadConfig({
    ...(database ? { DATABASE_URL: database.url } : {}),
    PLANWRIGHT_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    PORT: String(port),
    ...(options.ownPublicUrl ? { PUBLIC_URL: `http://127.0.0.1:${port}` } : {}),
    ...options.env,
  });
  await seedEmbeddedDatabase(config.database);
  const start = async (listenPort: number) => {
    const server = await createServer(config, options.now ? { now: options.now } : {});
    await server.listen({ port: listenPort, host: '127.0.0.1' });
    return server;
  };
  let app: Awaited<ReturnType<typeof createServer>> | null = await start(port);
  const address = app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('test server is not listening on a TCP port');
  const boundPort = address.port;
  return {
    url: `http://127.0.0.1:${boundPort}`,
    dataDir,
    outboxDir: config.mail.outboxDir,
    database: config.database,
    async stop() {
      const running = app;
      app = null;
      await running?.close();
    },
    async kill() {
      const running = app;
      app = null;
      if (!running) return;
      const sockets = (running as { websocketServer?: { clients: Set<{ terminate(): void }> } })
        .websocketServer;
      for (const client of sockets?.clients ?? []) client.terminate();
      running.server.closeAllConnections();
      await running.close();
    },
    async restart() {
      if (app) throw new Error('the test server is already running');
      app = await start(boundPort);
    },
    async close() {
      await app?.close();
      app = null;
      rmSync(dataDir, { recursive: true, force: true });
      await database?.drop();
    },
  };
}
