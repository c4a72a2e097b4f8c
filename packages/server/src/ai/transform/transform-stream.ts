import { PassThrough } from 'node:stream';

/** At most one `text` line this often: a model writes in many tiny pieces. */
export const TRANSFORM_TEXT_INTERVAL_MS = 50;

/**
 * The body of a streamed transform (TR57): `{"type":"text","text":…}` lines with the answer so far (the first at
 * once, then at most every {@link TRANSFORM_TEXT_INTERVAL_MS}), then exactly one final line, `{"type":"result",
 * "body":…}` with the JSON answer's body or `{"type":"error","status":…,"body":…}` with the JSON error's, and the
 * stream ends. Nothing is written after the client went away.
 */
export class TransformTextStream {
  readonly body = new PassThrough();
  #pending: string | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #lastSent = 0;
  #finished = false;

  constructor(private readonly now: () => number = Date.now) {
    this.body.once('close', () => this.#stop());
    // A write racing the destruction must not become an unhandled 'error' event.
    this.body.on('error', () => this.#stop());
  }

  /** The answer so far (cumulative). */
  text(text: string): void {
    if (this.#finished) return;
    this.#pending = text;
    if (this.#timer !== null) return;
    const wait = Math.max(0, this.#lastSent + TRANSFORM_TEXT_INTERVAL_MS - this.now());
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#flush();
    }, wait);
  }

  /** The JSON answer's body; ends the stream. */
  result(body: unknown): void {
    this.#end({ type: 'result', body });
  }

  /** The JSON error's status and body; ends the stream. */
  error(status: number, body: unknown): void {
    this.#end({ type: 'error', status, body });
  }

  #flush(): void {
    if (this.#finished || this.#pending === null) return;
    this.#write({ type: 'text', text: this.#pending });
    this.#pending = null;
    this.#lastSent = this.now();
  }

  #end(event: unknown): void {
    if (this.#finished) return;
    this.#stopTimer();
    this.#write(event);
    this.#finished = true;
    this.body.end();
  }

  #write(event: unknown): void {
    if (this.body.destroyed || this.body.writableEnded) return;
    this.body.write(`${JSON.stringify(event)}\n`);
  }

  #stopTimer(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #stop(): void {
    this.#finished = true;
    this.#stopTimer();
  }
}
