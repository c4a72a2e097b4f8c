import type { IncomingMessage } from 'node:http';
import { Redis as RedisExtension } from '@hocuspocus/extension-redis';
import {
  type Connection,
  type Document,
  Hocuspocus,
  type onAuthenticatePayload,
  type onLoadDocumentPayload,
} from '@hocuspocus/server';
import {
  LIVE_ACCESS_CHANGED,
  LIVE_BUSY,
  LIVE_DELETED,
  LIVE_SIGNED_OUT,
  needsRepair,
  readLiveContent,
  writeLiveContent,
} from '@planwright/sdk/live';
import { type DocumentJson, parseDocument } from '@planwright/sdk/model';
import type { FastifyBaseLogger } from 'fastify';
import { Redis as RedisClient } from 'ioredis';
import type { WebSocket } from 'ws';
import * as Y from 'yjs';
import { endedSessionIds } from '../auth/ended-sessions.js';
import { SESSION_COOKIE } from '../auth/request-credentials.js';
import type { SessionService } from '../auth/session-service.js';
import { DATABASE_CHANNELS } from '../db/database-events.js';
import { type LivePlan, parseLivePlanChange } from '../storage/live-state-repository.js';
import type { Storage } from '../storage/storage.js';
import type { UserRecord } from '../storage/user-repository.js';
import { retryStaleWrites } from '../structure/stale-write.js';
import { LIVE_PLAN_KINDS, type LiveAccess } from './live-plan-kinds.js';
import { livePlanName, parseLivePlanName } from './live-plan-name.js';
import { LiveUpdateLog, type LogTimers } from './live-update-log.js';

/** Transaction origins of changes the server makes itself (the log skips what it loaded). */
const LOADED = Symbol('planwright.live.loaded');
/** A change that came over REST (a PATCH, an import, a structure call). */
export const REST_ORIGIN = Symbol('planwright.live.rest');
/** The server writing back a repaired tree (src/live/SPEC.md LV4). */
const REPAIR_ORIGIN = Symbol('planwright.live.repair');

/**
 * Why a live document is closed by us. Hocuspocus closes one document of a socket in its protocol with a
 * reason only; the SDK knows an ended session by these words.
 */
export const LIVE_CLOSE = {
  signedOut: { code: 4401, reason: LIVE_SIGNED_OUT },
  notFound: { code: 4404, reason: 'Not found.' },
  deleted: { code: 4410, reason: LIVE_DELETED },
  accessChanged: { code: 4403, reason: LIVE_ACCESS_CHANGED },
} as const;

/** What `LiveStateRepository.announce` says (from the database: parsed, never trusted). */

/** Who is on a sync connection. */
interface LiveContext {
  user: UserRecord;
  sessionId: string;
  token: string;
  client: 'app' | 'browser';
  /** Whether the connection may change the plan (read-only ones have their updates refused). */
  access: LiveAccess;
}

/** A live document this instance has loaded. */
interface LoadedPlan {
  plan: LivePlan;
  log: LiveUpdateLog;
  /** Changed since its content was last derived. */
  dirty: boolean;
  /** Who changed it last (the derived write's actor). */
  editor: UserRecord | undefined;
  /** Derivations run one after another. */
  deriving: Promise<void>;
}

/** Options of {@link LiveDocuments}. */
export interface LiveDocumentsOptions {
  storage: Storage;
  sessions: SessionService;
  now: () => Date;
  log: FastifyBaseLogger;
  /** How long after the last change the content is derived, and the longest it waits while changes go on. */
  deriveDebounceMs: number;
  deriveMaxDebounceMs: number;
  /** How many plans this instance holds open at most (LM1); a plan past it is refused with LIVE_BUSY. */
  maxDocuments: number;
  /**
   * REDIS_URL: instances share live documents (updates, awareness, stateless messages) through Redis
   * (src/live/SPEC.md LR1–LR6). Unset, this instance serves live plans alone.
   */
  redisUrl?: string | undefined;
  timers?: LogTimers;
}

const defaultTimers: LogTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

function isLiveContext(value: unknown): value is LiveContext {
  return typeof value === 'object' && value !== null && 'user' in value && 'sessionId' in value;
}

/** The session cookie of an upgrade request, if it has one. */
function cookieToken(headers: IncomingMessage['headers']): string | undefined {
  const header = headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE) {
      const token = decodeURIComponent(value.join('='));
      return token === '' ? undefined : token;
    }
  }
  return undefined;
}

/**
 * Hocuspocus's Redis extension on `url`. Each of its two clients retries for ever (ioredis's default),
 * so a Redis restart delays sharing but never crashes the server; errors go to our log, once per outage.
 */
function redisExtension(url: string, log: FastifyBaseLogger): RedisExtension {
  const createClient = () => {
    const client = new RedisClient(url, { maxRetriesPerRequest: null, lazyConnect: false });
    let failing = false;
    client.on('error', (error: unknown) => {
      if (!failing) log.warn({ err: error }, 'Redis for live plans unreachable; retrying');
      failing = true;
    });
    client.on('ready', () => {
      failing = false;
    });
    return client;
  };
  return new RedisExtension({ createClient, prefix: 'planwright-live' });
}

/**
 * Live plans on this instance (docs/editor.md "Live plans"): a Hocuspocus sync server whose documents
 * are plans. Connections authenticate with the session token inside the protocol (or the browser's
 * session cookie), for plans the user may open. Every change is appended to the plan's update log as
 * it happens; the plan's `content`, rows and progress are derived from the Yjs state a moment after
 * changes stop, before any REST call that needs them, and when the last person leaves (then the log is
 * compacted and the document unloaded).
 */
export class LiveDocuments {
  readonly hocuspocus: Hocuspocus;
  readonly #options: LiveDocumentsOptions & { timers: LogTimers };
  readonly #loaded = new Map<string, LoadedPlan>();
  readonly #connections = new Map<Connection, LiveContext>();
  readonly #stopListening: () => void;
  readonly #redis: RedisExtension | undefined;
  /** Shutting down: the last derive pass runs, then nothing reaches the database (see close). */
  #shutdown: 'running' | 'deriving' | 'done' = 'running';

  constructor(options: LiveDocumentsOptions) {
    this.#options = { ...options, timers: options.timers ?? defaultTimers };
    this.#redis = options.redisUrl ? redisExtension(options.redisUrl, options.log) : undefined;
    this.hocuspocus = new Hocuspocus({
      name: 'planwright-live',
      quiet: true,
      // LR1: with Redis, every instance that has a plan loaded gets the others' changes and presence.
      extensions: this.#redis ? [this.#redis] : [],
      debounce: options.deriveDebounceMs,
      maxDebounce: options.deriveMaxDebounceMs,
      // The last person leaving derives the content at once (not after the debounce), then unloads.
      unloadImmediately: true,
      onAuthenticate: (data) => this.#authenticate(data),
      onLoadDocument: (data) => this.#load(data),
      afterLoadDocument: async ({ document, documentName }) => this.#attach(documentName, document),
      onStoreDocument: async ({ documentName, document }) => this.#derive(documentName, document),
      connected: async ({ connection, context }) => {
        if (isLiveContext(context)) this.#connections.set(connection, context);
      },
      onDisconnect: async ({ context }) => {
        for (const [connection, held] of this.#connections)
          if (held === context) this.#connections.delete(connection);
      },
      afterUnloadDocument: async ({ documentName }) => this.#unloaded(documentName),
    });
    const stopSessions = options.storage.events.listen(DATABASE_CHANNELS.sessionsEnded, (payload) => {
      void this.#sessionsEnded(payload);
    });
    const stopPlans = options.storage.events.listen(DATABASE_CHANNELS.livePlanChanged, (payload) =>
      this.#planChanged(payload),
    );
    this.#stopListening = () => {
      stopSessions();
      stopPlans();
    };
  }

  /** Takes an upgraded sync socket (its URL, Origin and token-in-URL checks are the route's). */
  handleConnection(socket: WebSocket, request: IncomingMessage): void {
    this.hocuspocus.handleConnection(socket, request);
  }

  /**
   * Makes the stored content current before a REST call reads or writes it: a loaded document's
   * pending changes are derived now; one that is not loaded but has log rows (the server stopped
   * before deriving them) is loaded, derived and unloaded. With `base`, for a call that writes, answers
   * the live state it is based on when the document is loaded, for {@link applyRestWrite} (encoding the
   * whole state is work a read does not need).
   */
  async beforeRest(
    plan: LivePlan,
    { base = false }: { base?: boolean } = {},
  ): Promise<Uint8Array | undefined> {
    const name = livePlanName(plan);
    const loaded = this.#loaded.get(name);
    const document = this.hocuspocus.documents.get(name);
    if (loaded && document) {
      if (this.#redis) await this.#catchUp(loaded, document);
      await this.#derive(name, document);
      return base ? Y.encodeStateAsUpdate(document) : undefined;
    }
    if ((await this.#options.storage.liveStates.pendingUpdates(plan)) === 0) return undefined;
    const direct = await this.hocuspocus.openDirectConnection(name, {});
    try {
      const opened = this.hocuspocus.documents.get(name);
      const held = this.#loaded.get(name);
      if (opened && held) {
        held.dirty = true;
        await this.#derive(name, opened);
      }
    } finally {
      await direct.disconnect();
    }
    return undefined;
  }

  /**
   * Derives now the pending changes of those of `plans` loaded here, so a list shows their progress
   * and counts as typed rather than as of the last debounce (LV8). Answers whether any was derived.
   */
  async deriveLoaded(plans: readonly LivePlan[]): Promise<boolean> {
    const pending = plans
      .map((plan) => livePlanName(plan))
      .filter((name) => this.#loaded.get(name)?.dirty === true);
    await Promise.all(
      pending.map(async (name) => {
        const document = this.hocuspocus.documents.get(name);
        if (document) await this.#derive(name, document);
      }),
    );
    return pending.length > 0;
  }

  /**
   * Brings a REST write's tree into the loaded live document, as a change to the state the call was
   * based on (`base`, from {@link beforeRest}): Yjs merges it with what people typed meanwhile, so
   * nothing they typed is overwritten. Resolves once the change is in the update log.
   */
  async applyRestWrite(plan: LivePlan, content: DocumentJson, base: Uint8Array | undefined): Promise<void> {
    const name = livePlanName(plan);
    const document = this.hocuspocus.documents.get(name);
    const loaded = this.#loaded.get(name);
    if (!document || !loaded) return;
    if (base) {
      const scratch = new Y.Doc();
      try {
        Y.applyUpdate(scratch, base);
        const before = Y.encodeStateVector(scratch);
        writeLiveContent(scratch, content);
        Y.applyUpdate(document, Y.encodeStateAsUpdate(scratch, before), REST_ORIGIN);
      } finally {
        scratch.destroy();
      }
    } else {
      writeLiveContent(document, content, REST_ORIGIN);
    }
    await loaded.log.whenStored({ failFast: true });
    await this.#derive(name, document);
  }

  /**
   * A plan changed as the database announced it (`LiveStateRepository.announce`, heard by every instance). A
   * deleted plan's log stops (its rows went with it) and its connections close for good; when who may open
   * it changed (a blueprint unpublished, made private, shared with other organisations), its connections
   * close and reconnect, and each is let in again only as far as the rules now allow.
   */
  #planChanged(payload: string | null): void {
    if (payload === null) {
      void this.#recheckAccess(() => true);
      return;
    }
    const change = parseLivePlanChange(payload);
    if (!change) return;
    const { kind, id, why } = change;
    const name = livePlanName({ kind, id });
    if (why === 'comments') {
      // Those with the plan open read its comments again (docs/teams.md "Comments").
      this.hocuspocus.documents.get(name)?.broadcastStateless(JSON.stringify({ type: 'comments' }));
      return;
    }
    if (why === 'access') {
      // Only those whose access is no longer what it was reconnect: the owner typing goes on undisturbed.
      void this.#recheckAccess((connection) => connection.document.name === name);
      return;
    }
    const loaded = this.#loaded.get(name);
    if (loaded) {
      loaded.log.close();
      loaded.dirty = false;
    }
    this.#closeAll(name, LIVE_CLOSE.deleted);
  }

  /**
   * Asks the access of the connections `which` selects again, and closes those whose access is no longer
   * what it was, to reconnect as far as the rules now allow: after a change of sharing, and for every
   * connection when announcements may have been missed (the database connection was lost).
   */
  async #recheckAccess(which: (connection: Connection) => boolean): Promise<void> {
    for (const [connection, context] of [...this.#connections]) {
      if (!which(connection)) continue;
      const plan = parseLivePlanName(connection.document.name);
      const now = plan
        ? await LIVE_PLAN_KINDS[plan.kind]
            .access(this.#options.storage, plan.id, context.user)
            .catch(() => null)
        : null;
      if (now !== context.access) connection.close(LIVE_CLOSE.accessChanged);
    }
  }

  /** Closes every connection to one plan on this instance, telling each why. */
  #closeAll(name: string, why: { code: number; reason: string }): void {
    const document = this.hocuspocus.documents.get(name);
    if (!document) return;
    for (const { connection } of [...document.connections.values()]) connection.close(why);
  }

  /**
   * Closes every sync connection after deriving every loaded document's content. Closing the connections
   * unloads the documents afterwards, when the database may be gone: from here on what an unload would
   * store is left in the update log, which the next load derives and compacts (LV1, LV4).
   */
  async close(): Promise<void> {
    this.#stopListening();
    this.#shutdown = 'deriving';
    await Promise.allSettled(
      [...this.#loaded.values()].map(async (loaded) => {
        const name = livePlanName(loaded.plan);
        const document = this.hocuspocus.documents.get(name);
        if (document) await this.#derive(name, document);
        await loaded.log.whenStored();
      }),
    );
    this.#shutdown = 'done';
    this.hocuspocus.closeConnections();
    // Changes that arrived while the connections closed: in the log before the database goes.
    await Promise.allSettled([...this.#loaded.values()].map((loaded) => loaded.log.whenStored()));
    for (const loaded of this.#loaded.values()) loaded.log.close();
    await this.#redis?.onDestroy().catch(() => {});
  }

  async #authenticate(data: onAuthenticatePayload): Promise<LiveContext> {
    const plan = parseLivePlanName(data.documentName);
    const fromCookie = data.token === '' ? cookieToken(data.requestHeaders) : undefined;
    const token = fromCookie ?? data.token;
    const client = fromCookie ? 'browser' : 'app';
    const userAgent = data.requestHeaders['user-agent'];
    const lookup = await this.#options.sessions.lookup(
      {
        client,
        token: token.length > 0 && token.length <= 256 ? token : undefined,
        ip: data.request.socket.remoteAddress ?? '',
        userAgent: typeof userAgent === 'string' ? userAgent : '',
      },
      { anyClient: !fromCookie },
    );
    if (lookup.kind !== 'live' || !lookup.session.authenticated || !lookup.user) {
      throw this.#refusal(data.documentName, 'no live session');
    }
    // A plan that is not the user's to see is as absent as a missing one.
    const planAccess = plan
      ? await LIVE_PLAN_KINDS[plan.kind].access(this.#options.storage, plan.id, lookup.user)
      : null;
    if (!planAccess) throw this.#refusal(data.documentName, "not found or not the user's");
    // A read-only personal access token reads as a viewer does.
    const access = lookup.session.scope === 'read' ? 'read' : planAccess;
    // Hocuspocus refuses a read-only connection's updates and tells its client (sync status false).
    if (access === 'read') data.connectionConfig.readOnly = true;
    if (this.#atCapacity(data.documentName)) {
      this.#options.log.warn({ open: this.#openCount() }, 'live plan refused: LIVE_MAX_DOCUMENTS are open');
      // Hocuspocus sends an error's `reason` as the refusal's words; the SDK retries on these.
      throw Object.assign(new Error(), { reason: LIVE_BUSY });
    }
    return { user: lookup.user, sessionId: lookup.session.id, token, client, access };
  }

  /** Plans open or opening on this instance. */
  #openCount(): number {
    return this.hocuspocus.documents.size + this.hocuspocus.loadingDocuments.size;
  }

  /** Whether opening `documentName` would hold more plans than allowed (one already open costs nothing). */
  #atCapacity(documentName: string): boolean {
    const open =
      this.hocuspocus.documents.has(documentName) || this.hocuspocus.loadingDocuments.has(documentName);
    return !open && this.#openCount() >= this.#options.maxDocuments;
  }

  /**
   * A refused connection: logged here at debug (Hocuspocus writes any hook error's message to the console,
   * outside our log, so the error it gets has none). The client is told "permission-denied" either way.
   */
  #refusal(documentName: string, why: string): Error {
    this.#options.log.debug({ document: documentName.slice(0, 80), why }, 'live connection refused');
    return new Error();
  }

  async #load(data: onLoadDocumentPayload): Promise<void> {
    const plan = parseLivePlanName(data.documentName);
    if (!plan) throw new Error(LIVE_CLOSE.notFound.reason);
    const { storage, now } = this.#options;
    const plans = LIVE_PLAN_KINDS[plan.kind].store(storage);
    let stored = await storage.liveStates.load(plan);
    if (stored.snapshot === null && stored.updates.length === 0) {
      // A plan saved before it was first opened live: its content becomes its first state.
      const head = await plans.liveStateOf(plan.id);
      const contentJson = head && (await plans.contentJsonOf(plan.id));
      if (!head || contentJson === undefined) throw new Error(LIVE_CLOSE.notFound.reason);
      const first = new Y.Doc();
      writeLiveContent(first, parseDocument(JSON.parse(contentJson)));
      if (!(await storage.liveStates.initialize(plan, Y.encodeStateAsUpdate(first), now()))) {
        stored = await storage.liveStates.load(plan);
      } else {
        stored = { snapshot: Y.encodeStateAsUpdate(first), updates: [] };
        // LV7: the live state now holds this revision's content; loading it later must not apply that
        // content again over what was typed since (even if nothing was derived before a crash).
        await plans.markLiveAt(plan.id, head.revision);
      }
      first.destroy();
    }
    data.document.transact(() => {
      if (stored.snapshot) Y.applyUpdate(data.document, stored.snapshot);
      for (const row of stored.updates) Y.applyUpdate(data.document, row.update);
    }, LOADED);
  }

  async #attach(documentName: string, document: Document): Promise<void> {
    const plan = parseLivePlanName(documentName);
    if (!plan) return;
    const log = new LiveUpdateLog(this.#options.storage, plan, {
      now: this.#options.now,
      timers: this.#options.timers,
      onError: (error) =>
        this.#options.log.warn({ err: error, document: plan.id }, 'live update not stored yet; retrying'),
      stateVector: () => Y.encodeStateVector(document),
      // Clients show "Saved" once the server has stored what they typed, not merely received it.
      onStored: (stateVector) =>
        document.broadcastStateless(
          JSON.stringify({ type: 'stored', state_vector: Buffer.from(stateVector).toString('base64') }),
        ),
    });
    const loaded: LoadedPlan = { plan, log, dirty: false, editor: undefined, deriving: Promise.resolve() };
    this.#loaded.set(documentName, loaded);
    // LR2: every change this instance applies is logged, the ones that came from another instance over
    // Redis too: that instance may die before its append, and a client re-syncing here finds nothing to
    // re-send. Such a duplicate is one more row, idempotent, and gone at the next compaction.
    document.on('update', (update: Uint8Array, origin: unknown) => {
      if (origin === LOADED) return;
      log.push(update);
      loaded.dirty = true;
      const context =
        origin && typeof origin === 'object' && 'context' in origin ? origin.context : undefined;
      if (isLiveContext(context)) loaded.editor = context.user;
    });
    // Content written over REST while no live copy was loaded comes in as a change on top. The head
    // tells whether there was any: the tree (2 MiB for 200 pages) is read only then.
    const plans = LIVE_PLAN_KINDS[plan.kind].store(this.#options.storage);
    const head = await plans.liveStateOf(plan.id);
    if (head && head.revision !== head.liveRevision) {
      const contentJson = await plans.contentJsonOf(plan.id);
      if (contentJson !== undefined)
        writeLiveContent(document, parseDocument(JSON.parse(contentJson)), REST_ORIGIN);
    }
  }

  /**
   * Scaled out, a change another instance stored reaches this copy over Redis a moment after it is in the
   * database: a REST call here right after it would read around it (LR3). So the stored state is merged in
   * first (Yjs skips what the copy has); it is in the log already, so it is not logged again, only derived.
   */
  async #catchUp(loaded: LoadedPlan, document: Document): Promise<void> {
    const stored = await this.#options.storage.liveStates.load(loaded.plan);
    const before = Y.encodeStateVector(document);
    document.transact(() => {
      if (stored.snapshot) Y.applyUpdate(document, stored.snapshot);
      for (const row of stored.updates) Y.applyUpdate(document, row.update);
    }, LOADED);
    if (Buffer.compare(before, Y.encodeStateVector(document)) !== 0) loaded.dirty = true;
  }

  /** Writes the content, rows and progress derived from the live state, if it changed since. */
  #derive(documentName: string, document: Y.Doc): Promise<void> {
    const loaded = this.#loaded.get(documentName);
    if (!loaded || this.#shutdown === 'done') return Promise.resolve();
    const { plan } = loaded;
    loaded.deriving = loaded.deriving
      .then(() => this.#deriveNow(loaded, document))
      .catch((error: unknown) => {
        loaded.dirty = true;
        this.#options.log.error({ err: error, document: plan.id }, 'deriving a live document failed');
      });
    return loaded.deriving;
  }

  async #deriveNow(loaded: LoadedPlan, document: Y.Doc): Promise<void> {
    // A derive queued behind close's last pass: the log holds its changes for the next load.
    if (!loaded.dirty || this.#shutdown === 'done') return;
    const { storage, now } = this.#options;
    const read = readLiveContent(document);
    if (needsRepair(read.report)) writeLiveContent(document, read.document, REPAIR_ORIGIN);
    loaded.dirty = false;
    // The content is never ahead of the log: a restart rebuilds the live state from the log.
    await loaded.log.whenStored();
    const kind = LIVE_PLAN_KINDS[loaded.plan.kind];
    await retryStaleWrites(() =>
      storage.transaction((tx) =>
        kind.writeDerived(tx, loaded.plan.id, read.document, { editor: loaded.editor, now: now() }),
      ),
    );
  }

  async #unloaded(documentName: string): Promise<void> {
    const loaded = this.#loaded.get(documentName);
    if (!loaded || this.#shutdown !== 'running') return;
    const { plan } = loaded;
    this.#loaded.delete(documentName);
    await loaded.deriving;
    await loaded.log.whenStored();
    loaded.log.close();
    try {
      await this.#options.storage.liveStates.compact(plan, this.#options.now());
    } catch (error) {
      this.#options.log.warn({ err: error, document: plan.id }, 'compacting a live document failed');
    }
  }

  /** Closes the connections of ended sessions (any instance's sign-out, db/SPEC.md SC1–SC3). */
  async #sessionsEnded(payload: string | null): Promise<void> {
    const ids = payload === null ? null : endedSessionIds(payload);
    for (const [connection, context] of this.#connections) {
      const ended =
        payload === null
          ? (
              await this.#options.sessions.lookup(
                { client: context.client, token: context.token, ip: '', userAgent: '' },
                { anyClient: context.client === 'app' },
              )
            ).kind !== 'live'
          : ids?.has(context.sessionId) === true;
      if (ended) {
        this.#connections.delete(connection);
        connection.close(LIVE_CLOSE.signedOut);
      }
    }
  }
}
