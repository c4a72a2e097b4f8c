import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { FormatError } from '@planwright/sdk/formats';
import { packagePath } from '../package-paths.js';
import type { ConversionJob, ConversionOutput, WorkerAnswer, WorkerRequest } from './conversion-job.js';

/** Timers the pool uses; tests pass manual ones so a time-out never needs a real wait. */
export interface PoolTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Options of {@link ConversionPool}. */
export interface ConversionPoolOptions {
  /** How many worker threads at most (created when first needed). */
  size: number;
  /** A job still running after this long is stopped: its thread is killed and it fails `timed_out`. */
  timeoutMs: number;
  /** Jobs waiting beyond this many are refused at once (the server answers 503). */
  maxQueued?: number;
  timers?: PoolTimers;
}

/** Every thread is busy and the queue is full. */
export class ConversionBusyError extends Error {
  override name = 'ConversionBusyError';
}

interface QueuedJob {
  job: ConversionJob;
  resolve: (output: unknown) => void;
  reject: (error: unknown) => void;
}

interface Slot {
  worker: Worker;
  current: (QueuedJob & { id: number; timer: unknown }) | undefined;
}

const defaultTimers: PoolTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

// From the sources (tests, `npm run dev`) the worker is TypeScript, loaded through tsx with the `source`
// condition; from dist/ it is the bundled JavaScript next to server.js.
const fromSource = import.meta.url.endsWith('.ts');

// A file that makes a parser allocate without bound kills its thread, not the server.
const WORKER_LIMITS = { maxOldGenerationSizeMb: 1536 };

function spawnWorker(): Worker {
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
      resourceLimits: WORKER_LIMITS,
    });
  }
  return new Worker(packagePath('dist/conversion-worker.js'), { resourceLimits: WORKER_LIMITS });
}

/**
 * Runs conversions in worker threads, one job per thread at a time, each with a time limit: a job over
 * it has its thread terminated (the only way to stop a parser stuck in a hostile file) and a fresh
 * thread takes the next job. Jobs queue in order when every thread is busy.
 */
export class ConversionPool {
  readonly #options: Required<Omit<ConversionPoolOptions, 'timers'>> & { timers: PoolTimers };
  readonly #slots: Slot[] = [];
  readonly #queue: QueuedJob[] = [];
  #nextId = 1;
  #closed = false;

  constructor(options: ConversionPoolOptions) {
    this.#options = { maxQueued: 64, timers: defaultTimers, ...options };
  }

  /** The default size: one thread per core beyond the first (the event loop's), at least one. */
  static defaultSize(): number {
    return Math.max(1, availableParallelism() - 1);
  }

  /**
   * Runs the job. Rejects with a `FormatError` when the file is refused or the job ran out of time,
   * `ConversionBusyError` when the queue is full, and an `Error` when the worker crashed.
   */
  run<J extends ConversionJob>(job: J): Promise<ConversionOutput<J>> {
    if (this.#closed) return Promise.reject(new Error('The conversion pool is closed.'));
    if (this.#queue.length >= this.#options.maxQueued) {
      return Promise.reject(new ConversionBusyError('Too many conversions are waiting; try again shortly.'));
    }
    return new Promise((resolve, reject) => {
      this.#queue.push({ job, resolve: resolve as (output: unknown) => void, reject });
      this.#dispatch();
    });
  }

  /** Stops every thread; waiting and running jobs fail. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const queued of this.#queue.splice(0)) queued.reject(new Error('The conversion pool was closed.'));
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

  #dispatch(): void {
    while (this.#queue.length > 0) {
      const slot = this.#idleSlot();
      if (!slot) return;
      const queued = this.#queue.shift() as QueuedJob;
      const id = this.#nextId++;
      const timer = this.#options.timers.setTimeout(() => this.#timeOut(slot, id), this.#options.timeoutMs);
      slot.current = { ...queued, id, timer };
      const request: WorkerRequest = { id, job: queued.job };
      // The import's bytes are copied, not transferred: the caller may still need them.
      slot.worker.postMessage(request);
    }
  }

  #idleSlot(): Slot | undefined {
    const idle = this.#slots.find((slot) => slot.current === undefined);
    if (idle) return idle;
    if (this.#slots.length >= this.#options.size) return undefined;
    const slot: Slot = { worker: spawnWorker(), current: undefined };
    this.#watch(slot);
    this.#slots.push(slot);
    return slot;
  }

  #watch(slot: Slot): void {
    slot.worker.on('message', (answer: WorkerAnswer) => {
      const current = slot.current;
      if (!current || current.id !== answer.id) return;
      this.#options.timers.clearTimeout(current.timer);
      slot.current = undefined;
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
        current.reject(error);
      }
      this.#dispatch();
    };
    slot.worker.on('error', (error) => lost(error));
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
    current.reject(
      new FormatError({
        reason: 'timed_out',
        message: `The conversion took longer than ${Math.round(this.#options.timeoutMs / 100) / 10} s and was stopped.`,
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
