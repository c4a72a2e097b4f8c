import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ensureSystemPackage, POSTGRESQL, postgresBinDir } from './system-packages.mjs';

/** A PostgreSQL server for tests, from TEST_DATABASE_URL or a throwaway Debian cluster. */
export interface TestPostgres {
  /** Where it came from, for test names and messages. */
  source: 'TEST_DATABASE_URL' | 'local cluster';
  /** The server's maintenance database (`postgres://…/postgres` for a local cluster). */
  adminUrl: string;
  /** Creates an empty database and returns its URL. */
  createDatabase(): Promise<string>;
  /** Drops the databases it created and stops a cluster it started. */
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function adminPool(url: string, work: (client: pg.Client) => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Starts PostgreSQL for a test file. With TEST_DATABASE_URL it uses that server (creating and dropping
 * its own databases there); otherwise it runs Debian's PostgreSQL in a temp directory on a free
 * loopback port, installing the package first when it is missing and we are root (else it fails
 * with the exact instruction). initdb refuses to run as root, so as root the cluster runs as `postgres`.
 */
export async function startPostgres(): Promise<TestPostgres> {
  const created: string[] = [];
  const makeCreate = (adminUrl: string) => async () => {
    const name = `planwright_test_${randomBytes(6).toString('hex')}`;
    await adminPool(adminUrl, async (client) => {
      await client.query(`create database ${name}`);
    });
    created.push(name);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return url.toString();
  };
  const dropCreated = async (adminUrl: string) => {
    await adminPool(adminUrl, async (client) => {
      for (const name of created.splice(0))
        await client.query(`drop database if exists ${name} with (force)`);
    });
  };

  const external = process.env.TEST_DATABASE_URL;
  if (external) {
    return {
      source: 'TEST_DATABASE_URL',
      adminUrl: external,
      createDatabase: makeCreate(external),
      stop: () => dropCreated(external),
    };
  }

  ensureSystemPackage(POSTGRESQL);
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL is installed but no initdb was found under /usr/lib/postgresql');
  const dir = mkdtempSync(join(tmpdir(), 'planwright-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
    chmodSync(dir, 0o700);
  }
  const run = (command: string, args: string[]) =>
    execFileSync(asRoot ? 'runuser' : command, asRoot ? ['-u', 'postgres', '--', command, ...args] : args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: dir,
    });
  const dataDir = join(dir, 'data');
  const port = await freePort();
  run(`${bin}/initdb`, [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--no-locale',
    '--no-sync',
  ]);
  run(`${bin}/pg_ctl`, [
    '-D',
    dataDir,
    '-l',
    join(dir, 'server.log'),
    '-w',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`,
    'start',
  ]);
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    source: 'local cluster',
    adminUrl,
    createDatabase: makeCreate(adminUrl),
    async stop() {
      try {
        await dropCreated(adminUrl);
      } finally {
        run(`${bin}/pg_ctl`, ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Drops the database `url` names (its connections cut first), through the server's admin database. */
export async function dropDatabase(adminUrl: string, url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  // Only names createDatabase made: the value goes into SQL unquoted.
  if (!/^planwright_test_[0-9a-f]{12}$/.test(name)) throw new Error(`not a test database: ${name}`);
  await adminPool(adminUrl, async (client) => {
    await client.query(`drop database if exists ${name} with (force)`);
  });
}
