import { PassThrough } from 'node:stream';
import { IMPORT_STREAM_MEDIA_TYPE, type ImportStreamEvent } from '@planwright/sdk';
import { prefersNdjson } from '../http/ndjson-negotiation.js';
import type { QueuePlace } from './conversion-pool.js';
import type { PoolTimers } from './fair-queue.js';

/** How often the current phase is told again: often enough for a progress line, and for proxies' idle time-outs. */
export const IMPORT_PROGRESS_INTERVAL_MS = 1_000;

/** Whether the client asked for the import as a progress stream (content negotiation, `prefersNdjson`). */
export const wantsImportStream = prefersNdjson;

type ProgressEvent = Extract<ImportStreamEvent, { type: 'progress' }>;
type ErrorEvent = Extract<ImportStreamEvent, { type: 'error' }>;

type Phase =
  | { kind: 'none' }
  | { kind: 'queued'; place: QueuePlace; since: number }
  | { kind: 'converting'; since: number; limitMs: number }
  | { kind: 'saving' };

/** What an {@link ImportProgressStream} reads the time with. */
export interface ImportProgressClock {
  now: () => Date;
  timers: PoolTimers;
}

/**
 * The body of a streamed import (`docs/http-api.md` "Import progress"): one JSON event per line. Each
 * phase is written when it begins and again every {@link IMPORT_PROGRESS_INTERVAL_MS} while it lasts (with
 * fresh figures), then exactly one final line, the result or an error, and the stream ends. When the
 * client goes away the stream stops writing and its timer is cleared; the import itself goes on.
 */
export class ImportProgressStream {
  /** What the reply sends. */
  readonly body = new PassThrough();
  #phase: Phase = { kind: 'none' };
  #timer: unknown;
  #finished = false;

  constructor(private readonly clock: ImportProgressClock) {
    // The reply destroys the body when the client disconnects; nothing is written after that.
    this.body.once('close', () => this.#stop());
    // A write racing the destruction must not become an unhandled 'error' event.
    this.body.on('error', () => this.#stop());
  }

  /** The job joined the conversion line. */
  queued(place: QueuePlace): void {
    this.#enter({ kind: 'queued', place, since: this.#now() });
  }

  /** A worker took the job; it is stopped at `limitMs`. */
  converting(limitMs: number): void {
    this.#enter({ kind: 'converting', since: this.#now(), limitMs });
  }

  /** The converted file is being merged and saved. */
  saving(): void {
    this.#enter({ kind: 'saving' });
  }

  /** The last line: the JSON answer's body (already serialised) and its `ETag`. */
  result(etag: string, body: Buffer | string): void {
    const head = `{"type":"result","etag":${JSON.stringify(etag)},"body":`;
    this.#end(Buffer.concat([Buffer.from(head), Buffer.from(body), Buffer.from('}\n')]));
  }

  /** The last line: the JSON answer's status and body for the failure. */
  error(event: Omit<ErrorEvent, 'type'>): void {
    const line: ErrorEvent = { type: 'error', ...event };
    this.#end(Buffer.from(`${JSON.stringify(line)}\n`));
  }

  #enter(phase: Phase): void {
    if (this.#finished) return;
    this.#phase = phase;
    this.#tell();
  }

  #tell(): void {
    this.clock.timers.clearTimeout(this.#timer);
    this.#timer = undefined;
    const event = this.#event();
    if (!event || !this.#open()) return;
    this.body.write(`${JSON.stringify(event)}\n`);
    this.#timer = this.clock.timers.setTimeout(() => this.#tell(), IMPORT_PROGRESS_INTERVAL_MS);
  }

  #event(): ProgressEvent | undefined {
    const phase = this.#phase;
    switch (phase.kind) {
      case 'none':
        return undefined;
      case 'queued':
        return {
          type: 'progress',
          phase: 'queued',
          ahead: phase.place.ahead(),
          waited_ms: this.#since(phase.since),
          limit_ms: phase.place.limitMs,
        };
      case 'converting':
        return {
          type: 'progress',
          phase: 'converting',
          elapsed_ms: this.#since(phase.since),
          limit_ms: phase.limitMs,
        };
      case 'saving':
        return { type: 'progress', phase: 'saving' };
    }
  }

  #end(line: Buffer): void {
    if (this.#finished) return;
    this.#stop();
    if (this.#open()) this.body.end(line);
  }

  #stop(): void {
    this.#finished = true;
    this.clock.timers.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #open(): boolean {
    return !this.body.destroyed && !this.body.writableEnded;
  }

  #now(): number {
    return this.clock.now().getTime();
  }

  // A clock set back (tests, NTP) never makes a negative figure.
  #since(start: number): number {
    return Math.max(0, Math.round(this.#now() - start));
  }
}
