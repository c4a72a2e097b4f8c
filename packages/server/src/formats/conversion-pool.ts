import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { FormatError } from '@planwright/sdk/formats';
import { packagePath } from '../package-paths.js';
import type { ConversionJob, ConversionOutput, WorkerAnswer, WorkerRequest } from './conversion-job.js';
import { FairQueue, type PoolTimers } from './fair-queue.js';

export type { PoolTimers } from './fair-queue.js';

/** Options of {@link ConversionPool}. */
export interface ConversionPoolOptions {
  /** How many worker threads at most (created when first needed). */
  size: number;
  /**
   * A job still running after this long is stopped: its thread is killed and it fails `timed_out`. A job
   * may bring its own (a budget scaled to its file, see {@link RunOptions}).
   */
  timeoutMs: number;
  /** Jobs waiting beyond this many, all users together, are refused at once (the server answers 503). */
  maxQueued?: number;
  /** Jobs one user may have waiting and running together; more are refused (the server answers 429). */
  maxPerOwner?: number;
  /** Jobs of one user that run at once; default: half the threads, at least one. */
  maxRunningPerOwner?: number;
  /** A job that waited this long for a thread is dropped (503), whatever its own time limit. */
  queueTimeoutMs?: number;
  /** The heap limit (MB) of a job that brings none of its own; default 1536. */
  memoryMb?: number;
  /** What a job is called in messages ("The save took longer…"); default `conversion`. */
  noun?: string;
  timers?: PoolTimers;
}

/** Who a job is for, and its own time limit. */
export interface RunOptions {
  /** The user the job is for: users take turns, and each has a cap on jobs waiting and running. */
  owner: string;
  /** This job's running-time limit (its budget); the pool's `timeoutMs` when absent. */
  timeoutMs?: number;
  /** Said in the time-out message after the limit, e.g. "the limit for a 475 KB file". */
  limitLabel?: string;
  /** This job's heap limit in MB: it runs in a worker thread made with exactly this limit. */
  memoryMb?: number;
  /** Said in the out-of-memory message after the limit, like `limitLabel`. */
  memoryLabel?: string;
  /**
   * Called once, synchronously inside {@link ConversionPool.run}, when the job joins the line (it was not
   * refused). Not called for a refused job. It may be told {@link onStart} right after.
   */
  onQueued?: (place: QueuePlace) => void;
  /** Called once, when a thread takes the job, with the running-time limit its clock starts on. */
  onStart?: (start: { timeoutMs: number }) => void;
}

/** A waiting job's place in the line, read while it waits. */
export interface QueuePlace {
  /**
   * How many waiting jobs go before this one if no one else arrives (users take turns, so a user's third
   * job waits behind everyone's first and second); 0 once it has left the line.
   */
  ahead(): number;
  /** How long it may wait for a thread before it is dropped (`queue_timeout`). */
  readonly limitMs: number;
}

/** Why a job was not run: its user has too many (`owner_limit`), the server is full, or it waited too long. */
export type ConversionBusyReason = 'owner_limit' | 'full' | 'queue_timeout';

/** The job was not run: its user has too many, every thread is busy and the queue is full, or it waited too long. */
export class ConversionBusyError extends Error {
  override name = 'ConversionBusyError';
  constructor(
    readonly reason: ConversionBusyReason,
    message: string,
    /** When to try again, in seconds (sent as `Retry-After`). */
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

interface QueuedJob {
  job: ConversionJob;
  owner: string;
  timeoutMs: number;
  limitLabel: string | undefined;
  onStart: RunOptions['onStart'];
  memoryMb: number;
  memoryLabel: string | undefined;
  resolve: (output: unknown) => void;
  reject: (error: unknown) => void;
}

interface Slot {
  worker: Worker;
  /** The thread's heap limit: only jobs with exactly this budget run in it. */
  memoryMb: number;
  current: (QueuedJob & { id: number; timer: unknown }) | undefined;
}

/** The real timers (looked up at each call, so fake timers installed later apply). */
export const SYSTEM_TIMERS: PoolTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

// From the sources (tests, `npm run dev`) the worker is TypeScript, loaded through tsx with the `source`
// condition; from dist/ it is the bundled JavaScript next to server.js.
const fromSource = import.meta.url.endsWith('.ts');

/** The heap limit of a job without its own (what every worker had before budgets scaled it to the file). */
const DEFAULT_MEMORY_MB = 1536;

// A file that makes a parser allocate past its job's budget kills its thread, not the server.
function spawnWorker(memoryMb: number): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: memoryMb };
  if (fromSource) {
    // On Node 20 neither `--import tsx` in a worker's execArgv nor tsx's `register()` inside it transforms
    // the worker's TypeScript; tsx's `tsImport` does (the ESM build: its CommonJS twin points nowhere).
    const tsx = pathToFileURL(
      createRequire(import.meta.url)
        .resolve('tsx/esm/api')
        .replace(/\.cjs$/, '.mjs'),
    ).href;
    const worker = pathToFileURL(packagePath('src/conversion-worker.ts')).href;
    const bootstrap = `import(${JSON.stringify(tsx)}).then((api) => api.tsImport(${JSON.stringify(worker)}, ${JSON.stringify(worker)}));`;
    return new Worker(bootstrap, {
      eval: true,
      execArgv: ['--conditions=planwright-source'],
      resourceLimits,
    });
  }
  return new Worker(packagePath('dist/conversion-worker.js'), { resourceLimits });
}

/**
 * Runs conversions in worker threads, one job per thread at a time, each with a time limit: a job over
 * it has its thread terminated (the only way to stop a parser stuck in a hostile file) and a fresh
 * thread takes the next job. Each job also has a heap limit, set when a thread is made: a job runs in an
 * idle thread with exactly its limit, else in a new one (an idle thread with another limit is replaced
 * when the pool is at its size), so the thread count never passes `size`; a job over its heap limit
 * fails `out_of_memory` and its thread is replaced. Jobs wait in a {@link FairQueue}: users take turns, each with a cap on jobs
 * waiting and running, and the time a job waits is bounded apart from the time it runs.
 */
export class ConversionPool {
  readonly #options: Required<Omit<ConversionPoolOptions, 'timers'>> & { timers: PoolTimers };
  readonly #slots: Slot[] = [];
  readonly #queue: FairQueue<QueuedJob>;
  #nextId = 1;
  #closed = false;

  constructor(options: ConversionPoolOptions) {
    this.#options = {
      maxQueued: 64,
      maxPerOwner: 4,
      maxRunningPerOwner: Math.max(1, Math.floor(options.size / 2)),
      queueTimeoutMs: 30_000,
      memoryMb: DEFAULT_MEMORY_MB,
      noun: 'conversion',
      timers: SYSTEM_TIMERS,
      ...options,
    };
    this.#queue = new FairQueue<QueuedJob>(this.#options, this.#options.timers, (queued) =>
      queued.reject(
        new ConversionBusyError(
          'queue_timeout',
          `The ${this.#options.noun} waited more than ${seconds(this.#options.queueTimeoutMs)} s for a free worker; try again shortly.`,
          this.#retryAfter(),
        ),
      ),
    );
  }

  /** The default size: one thread per core beyond the first (the event loop's), at least one. */
  static defaultSize(): number {
    return Math.max(1, availableParallelism() - 1);
  }

  /**
   * Runs the job for `options.owner`. Rejects with a `FormatError` when the file is refused or the job
   * ran out of time, `ConversionBusyError` when the user has too many jobs, the queue is full or the
   * job waited too long, and an `Error` when the worker crashed.
   */
  run<J extends ConversionJob>(job: J, options: RunOptions): Promise<ConversionOutput<J>> {
    if (this.#closed) return Promise.reject(new Error('The conversion pool is closed.'));
    return new Promise((resolve, reject) => {
      const queued: QueuedJob = {
        job,
        owner: options.owner,
        timeoutMs: options.timeoutMs ?? this.#options.timeoutMs,
        limitLabel: options.limitLabel,
        onStart: options.onStart,
        memoryMb: options.memoryMb ?? this.#options.memoryMb,
        memoryLabel: options.memoryLabel,
        resolve: resolve as (output: unknown) => void,
        reject,
      };
      const refusal = this.#queue.add(options.owner, queued);
      if (refusal === 'owner_limit') {
        reject(
          new ConversionBusyError(
            'owner_limit',
            `You have ${this.#options.maxPerOwner} ${this.#options.noun}s waiting or running; try again when one has finished.`,
            this.#retryAfter(),
          ),
        );
      } else if (refusal === 'full') {
        reject(
          new ConversionBusyError(
            'full',
            `Too many ${this.#options.noun}s are waiting; try again shortly.`,
            this.#retryAfter(),
          ),
        );
      } else {
        const limitMs = this.#options.queueTimeoutMs;
        tell(() => options.onQueued?.({ ahead: () => this.#queue.ahead(queued) ?? 0, limitMs }));
        this.#dispatch();
      }
    });
  }

  /** Stops every thread; waiting and running jobs fail. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const queued of this.#queue.drain()) queued.reject(new Error('The conversion pool was closed.'));
    await Promise.all(
      this.#slots.splice(0).map(async (slot) => {
        if (slot.current) {
          this.#options.timers.clearTimeout(slot.current.timer);
          slot.current.reject(new Error('The conversion pool was closed.'));
        }
        await slot.worker.terminate();
      }),
    );
  }

  // A job of the default length frees a thread within its time limit: a fair guess at when to come back.
  #retryAfter(): number {
    return Math.max(1, Math.ceil(this.#options.timeoutMs / 1000));
  }

  #dispatch(): void {
    while (this.#hasFreeThread()) {
      const next = this.#queue.take();
      if (!next) return;
      const queued = next.item;
      const slot = this.#slotFor(queued.memoryMb);
      const id = this.#nextId++;
      const timer = this.#options.timers.setTimeout(() => this.#timeOut(slot, id), queued.timeoutMs);
      slot.current = { ...queued, id, timer };
      const request: WorkerRequest = { id, job: queued.job };
      // The import's bytes are copied, not transferred: the caller may still need them.
      slot.worker.postMessage(request);
      tell(() => queued.onStart?.({ timeoutMs: queued.timeoutMs }));
    }
  }

  #hasFreeThread(): boolean {
    return this.#slots.some((slot) => slot.current === undefined) || this.#slots.length < this.#options.size;
  }

  /**
   * An idle thread with exactly `memoryMb` of heap, else a new one: beside the others while the pool is
   * below its size, else in place of an idle thread with another limit (the caller checked one is free).
   */
  #slotFor(memoryMb: number): Slot {
    const fitting = this.#slots.find((slot) => slot.current === undefined && slot.memoryMb === memoryMb);
    if (fitting) return fitting;
    if (this.#slots.length >= this.#options.size) {
      const idle = this.#slots.find((slot) => slot.current === undefined);
      if (idle) this.#replace(idle);
    }
    const slot: Slot = { worker: spawnWorker(memoryMb), memoryMb, current: undefined };
    this.#watch(slot);
    this.#slots.push(slot);
    return slot;
  }

  /** The heap limits of the pool's threads, busy or idle (for tests and diagnostics). */
  get threadLimits(): number[] {
    return this.#slots.map((slot) => slot.memoryMb);
  }

  /** The slot's job has ended: its user's turn is free again, and the next job may start. */
  #ended(current: QueuedJob): void {
    this.#queue.finished(current.owner);
  }

  #watch(slot: Slot): void {
    slot.worker.on('message', (answer: WorkerAnswer) => {
      const current = slot.current;
      if (!current || current.id !== answer.id) return;
      this.#options.timers.clearTimeout(current.timer);
      slot.current = undefined;
      this.#ended(current);
      if (answer.ok) current.resolve(answer.result);
      else if ('refusal' in answer) current.reject(new FormatError(answer.refusal));
      else current.reject(new Error(`Conversion failed: ${answer.crash}`));
      this.#dispatch();
    });
    const lost = (error: Error) => {
      const current = slot.current;
      this.#replace(slot);
      if (current) {
        this.#options.timers.clearTimeout(current.timer);
        this.#ended(current);
        current.reject(error);
      }
      this.#dispatch();
    };
    slot.worker.on('error', (error) => {
      const current = slot.current;
      if (current && (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY') {
        // A file that needs more heap than its budget: the user's file, not a server fault.
        const limit = `${current.memoryMb} MB of memory${current.memoryLabel ? ` (${current.memoryLabel})` : ''}`;
        lost(
          new FormatError({
            reason: 'out_of_memory',
            message: `The ${this.#options.noun} needed more than ${limit} and was stopped.`,
            cause: error,
          }),
        );
      } else lost(error);
    });
    slot.worker.on('exit', (code) => {
      if (!this.#closed && this.#slots.includes(slot))
        lost(new Error(`The conversion worker exited (code ${code}).`));
    });
  }

  #timeOut(slot: Slot, id: number): void {
    const current = slot.current;
    if (!current || current.id !== id) return;
    slot.current = undefined;
    this.#replace(slot);
    this.#ended(current);
    const limit = `${seconds(current.timeoutMs)} s${current.limitLabel ? ` (${current.limitLabel})` : ''}`;
    current.reject(
      new FormatError({
        reason: 'timed_out',
        message: `The ${this.#options.noun} took longer than ${limit} and was stopped.`,
      }),
    );
    this.#dispatch();
  }

  /** Drops a slot's thread (killing it if still running); a new one is made when next needed. */
  #replace(slot: Slot): void {
    const index = this.#slots.indexOf(slot);
    if (index !== -1) this.#slots.splice(index, 1);
    void slot.worker.terminate();
  }
}

/** Runs a caller's callback: one that throws must not leave a job half-dispatched. */
function tell(callback: () => void): void {
  try {
    callback();
  } catch {
    // The caller's own failure; the pool's bookkeeping goes on.
  }
}

/** Milliseconds as seconds with at most one decimal: 10000 → 10, 2500 → 2.5. */
function seconds(ms: number): number {
  return Math.round(ms / 100) / 10;
}
