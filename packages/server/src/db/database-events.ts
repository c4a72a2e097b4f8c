import pg from 'pg';
import type { ReopeningPglite } from './reopening-pglite.js';

/**
 * A handler of one channel's notifications. `null` means "notifications may have been missed" (the
 * listening connection was lost and is back): the handler should recheck what it guards.
 */
export type DatabaseEventHandler = (payload: string | null) => void;

/**
 * Cross-instance events over PostgreSQL LISTEN/NOTIFY. Writers send with `select pg_notify(channel,
 * payload)` on the same connection or transaction as their write, so an event is heard only once the
 * write is committed, by every instance on the database, this one included.
 */
export interface DatabaseEvents {
  /** Calls `handler` for each notification on `channel`; returns the unsubscribe. */
  listen(channel: string, handler: DatabaseEventHandler): () => void;
  /** Resolves once every channel asked for so far is being listened to (or the attempt failed). */
  listening(): Promise<void>;
  /** Stops listening. Idempotent. */
  close(): Promise<void>;
}

/** The channels the server uses: lowercase identifiers, so LISTEN needs no quoting. */
export const DATABASE_CHANNELS = {
  /** Payload: a JSON array of the ids of sessions just ended (sign-out, expiry, password reset). */
  sessionsEnded: 'planwright_sessions_ended',
  /**
   * Payload: JSON `{kind: "document" | "blueprint", id, why: "access" | "deleted" | "comments"}`: who may open a live
   * plan changed, or it was deleted (every instance closes its connections to it, live SPEC LB3), or its comments
   * changed (every instance tells the people with it open).
   */
  livePlanChanged: 'planwright_live_plan_changed',
} as const;

type Handlers = Map<string, Set<DatabaseEventHandler>>;

function addHandler(handlers: Handlers, channel: string, handler: DatabaseEventHandler): boolean {
  const set = handlers.get(channel) ?? new Set();
  const isNew = set.size === 0;
  set.add(handler);
  handlers.set(channel, set);
  return isNew;
}

function dispatch(handlers: Handlers, channel: string, payload: string | null): void {
  for (const handler of handlers.get(channel) ?? []) handler(payload);
}

/**
 * Events over PGlite's own LISTEN/NOTIFY: one process, so every listener is in this one. After PGlite
 * was reopened (DF3) every handler hears `null`, as on a PostgreSQL reconnect.
 */
export function pgliteEvents(client: Pick<ReopeningPglite, 'listen' | 'onReopen'>): DatabaseEvents {
  const handlers: Handlers = new Map();
  const unlisten: Promise<() => Promise<void>>[] = [];
  client.onReopen(() => {
    for (const channel of handlers.keys()) dispatch(handlers, channel, null);
  });
  return {
    listen(channel, handler) {
      if (addHandler(handlers, channel, handler))
        unlisten.push(client.listen(channel, (payload) => dispatch(handlers, channel, payload)));
      return () => handlers.get(channel)?.delete(handler);
    },
    async listening() {
      await Promise.allSettled(unlisten);
    },
    async close() {
      handlers.clear();
      // The database may already be closed; its listeners then went with it.
      await Promise.allSettled(unlisten.splice(0).map(async (pending) => (await pending)()));
    },
  };
}

/** How long the listener waits before reconnecting, doubling up to the last value. */
const RECONNECT_DELAYS_MS = [250, 500, 1000, 2000, 5000];

/**
 * Events over one dedicated PostgreSQL connection that LISTENs on every channel in use. When that
 * connection is lost (database restart, failover, network) it reconnects with backoff and then tells
 * every handler `null`, as notifications sent meanwhile are gone.
 */
export function postgresEvents(url: string, onError: (error: unknown) => void = () => {}): DatabaseEvents {
  const handlers: Handlers = new Map();
  let client: pg.Client | undefined;
  let connecting: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let attempt = 0;
  let closed = false;

  const schedule = () => {
    if (closed || timer) return;
    const delay = RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)] ?? 5000;
    attempt += 1;
    timer = setTimeout(() => {
      timer = undefined;
      void connect(true);
    }, delay);
    // A pending reconnect must not keep the process alive.
    timer.unref();
  };

  const connect = (missedSome: boolean): Promise<void> => {
    if (closed) return Promise.resolve();
    connecting ??= (async () => {
      const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
      next.on('notification', (message) => dispatch(handlers, message.channel, message.payload ?? ''));
      const lost = (error?: unknown) => {
        if (error) onError(error);
        if (client !== next) return;
        client = undefined;
        void next.end().catch(() => {});
        schedule();
      };
      next.on('error', lost);
      next.on('end', () => lost());
      try {
        await next.connect();
        for (const channel of handlers.keys()) await next.query(`listen ${channel}`);
        if (closed) {
          await next.end();
          return;
        }
        client = next;
        attempt = 0;
        if (missedSome) for (const channel of handlers.keys()) dispatch(handlers, channel, null);
      } catch (error) {
        onError(error);
        void next.end().catch(() => {});
        schedule();
      }
    })().finally(() => {
      connecting = undefined;
    });
    return connecting;
  };

  return {
    listen(channel, handler) {
      if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
      if (addHandler(handlers, channel, handler)) {
        if (client) void client.query(`listen ${channel}`).catch(onError);
        else if (!connecting && !timer) void connect(false);
      }
      return () => handlers.get(channel)?.delete(handler);
    },
    async listening() {
      await connecting;
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      handlers.clear();
      await connecting;
      const open = client;
      client = undefined;
      await open?.end().catch(() => {});
    },
  };
}
