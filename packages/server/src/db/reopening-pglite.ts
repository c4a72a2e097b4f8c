import { statfsSync } from 'node:fs';
import {
  type ExecProtocolOptions,
  PGlite,
  type QueryOptions,
  type Results,
  type Transaction,
} from '@electric-sql/pglite';

/**
 * The embedded database stopped after a fatal error (a PANIC such as a WAL write on a full disk) and
 * is not open again yet. Its SQLSTATE 57P03 ("cannot connect now") makes requests answer 503 (DU5).
 */
export class EmbeddedDatabaseStoppedError extends Error {
  override name = 'EmbeddedDatabaseStoppedError';
  readonly code = '57P03';
  constructor(cause: unknown) {
    super('The embedded database stopped after a fatal error and is not open again yet.', { cause });
  }
}

/** Free bytes the data directory needs before a stopped database is reopened: one WAL segment and room. */
export const REOPEN_MIN_FREE_BYTES = 32 * 1024 * 1024;

/**
 * Whether `error` ended the embedded PostgreSQL: a PANIC (severity sent with the error) or a WASM abort.
 * After either, the next query on that instance spins in WASM forever, blocking the event loop.
 */
export function isFatalPgliteError(error: unknown): boolean {
  // Emscripten's abort() throws a WebAssembly.RuntimeError (no DOM lib here, so matched by name).
  if (error instanceof Error && error.name === 'RuntimeError' && /^Aborted\(/.test(error.message))
    return true;
  return (error as { severity?: unknown } | null)?.severity === 'PANIC';
}

/** PGlite that refuses every query once a fatal error ended its backend, instead of hanging the process. */
class GuardedPglite extends PGlite {
  stoppedBy: unknown;

  override execProtocolRawSync(message: Uint8Array): Uint8Array {
    // Every query, ROLLBACK and COMMIT passes here; the dead backend must never be entered again.
    if (this.stoppedBy !== undefined) throw new EmbeddedDatabaseStoppedError(this.stoppedBy);
    return super.execProtocolRawSync(message);
  }

  override async execProtocol(message: Uint8Array, options?: ExecProtocolOptions) {
    try {
      return await super.execProtocol(message, options);
    } catch (error) {
      this.#noteFailure(error);
      throw error;
    }
  }

  override async execProtocolStream(message: Uint8Array, options?: ExecProtocolOptions) {
    try {
      return await super.execProtocolStream(message, options);
    } catch (error) {
      this.#noteFailure(error);
      throw error;
    }
  }

  #noteFailure(error: unknown): void {
    if (this.stoppedBy === undefined && isFatalPgliteError(error)) this.stoppedBy = error;
  }
}

async function createGuarded(dataDir: string): Promise<GuardedPglite> {
  const client = new GuardedPglite(dataDir);
  await client.waitReady;
  return client;
}

/** Free bytes on the filesystem holding `dir`, or Infinity when it cannot be told. */
function freeBytes(dir: string): number {
  try {
    const stats = statfsSync(dir);
    return stats.bavail * stats.bsize;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

type Listener = {
  channel: string;
  callback: (payload: string) => void;
  /** Settles with the current instance's unlisten, or undefined when that instance refused LISTEN. */
  unlisten: Promise<(() => Promise<void>) | undefined>;
};

/** LISTEN on one instance; a stopped one refuses it, and the reopen registers the callback again. */
function listenOn(client: PGlite, channel: string, callback: (payload: string) => void) {
  return client.listen(channel, callback).catch(() => undefined);
}

/**
 * One PGlite over a data directory that outlives a fatal error: the query builder and the event
 * listeners hold this object, and behind it a stopped instance is replaced by a new one on the same
 * directory (PostgreSQL's crash recovery replays the WAL, so every committed write is kept). The
 * reopen happens on the next query once the disk has {@link REOPEN_MIN_FREE_BYTES}; until then queries
 * fail at once with {@link EmbeddedDatabaseStoppedError}. The caller holds the data-directory lock.
 */
export class ReopeningPglite {
  #client: GuardedPglite;
  #reopening: Promise<GuardedPglite> | undefined;
  #closed = false;
  readonly #listeners = new Set<Listener>();
  readonly #onReopen = new Set<() => void>();
  /** How many times the database was reopened after a fatal error (for logs and tests). */
  reopenCount = 0;

  private constructor(
    readonly dataDir: string,
    client: GuardedPglite,
    private readonly freeBytesOf: (dir: string) => number,
  ) {
    this.#client = client;
  }

  /** Opens PGlite on `dataDir`. `freeBytesOf` is for tests; the default asks the filesystem. */
  static async open(dataDir: string, freeBytesOf: (dir: string) => number = freeBytes) {
    return new ReopeningPglite(dataDir, await createGuarded(dataDir), freeBytesOf);
  }

  query<T>(query: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.#current().then((client) => client.query<T>(query, params, options));
  }

  exec(query: string, options?: QueryOptions): Promise<Results[]> {
    return this.#current().then((client) => client.exec(query, options));
  }

  transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.#current().then((client) => client.transaction(callback));
  }

  /** LISTEN that survives a reopen: the callback is registered again on the new instance. */
  async listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
    const listener: Listener = { channel, callback, unlisten: listenOn(this.#client, channel, callback) };
    this.#listeners.add(listener);
    await listener.unlisten;
    return async () => {
      this.#listeners.delete(listener);
      await (await listener.unlisten)?.().catch(() => {});
    };
  }

  /** Calls `hook` after each reopen: notifications sent meanwhile are lost (SC3's `null`). */
  onReopen(hook: () => void): void {
    this.#onReopen.add(hook);
  }

  /** Closes the current instance. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#reopening?.catch(() => {});
    await this.#client.close().catch(() => {});
  }

  #current(): Promise<GuardedPglite> {
    if (this.#closed) return Promise.reject(new Error('The embedded database is closed.'));
    const client = this.#client;
    if (client.stoppedBy === undefined) return Promise.resolve(client);
    this.#reopening ??= this.#reopen(client).finally(() => {
      this.#reopening = undefined;
    });
    return this.#reopening;
  }

  async #reopen(stopped: GuardedPglite): Promise<GuardedPglite> {
    // Starting on a full disk fails anyway (crash recovery writes a checkpoint): do not try yet.
    if (this.freeBytesOf(this.dataDir) < REOPEN_MIN_FREE_BYTES)
      throw new EmbeddedDatabaseStoppedError(stopped.stoppedBy);
    // Safe on a stopped instance: the guard keeps close() from entering the dead backend.
    if (!stopped.closed) await stopped.close().catch(() => {});
    let next: GuardedPglite;
    try {
      next = await createGuarded(this.dataDir);
    } catch (error) {
      throw new EmbeddedDatabaseStoppedError(error);
    }
    if (this.#closed) {
      await next.close().catch(() => {});
      throw new Error('The embedded database is closed.');
    }
    for (const listener of this.#listeners)
      listener.unlisten = next.listen(listener.channel, listener.callback);
    await Promise.allSettled([...this.#listeners].map((listener) => listener.unlisten));
    this.#client = next;
    this.reopenCount += 1;
    for (const hook of this.#onReopen) hook();
    return next;
  }
}
