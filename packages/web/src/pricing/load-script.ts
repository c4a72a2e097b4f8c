/** Loads a classic `<script src>` once per page; a failure can be retried. */

export interface LoadScriptOptions {
  /** Give up after this long (a blocked request can hang instead of failing). Default 15 s. */
  timeoutMs?: number;
  /** Defaults to the global `document`. */
  document?: Document;
  setTimeout?: (callback: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
}

export class ScriptLoadError extends Error {
  readonly src: string;
  readonly reason: 'error' | 'timeout';
  constructor(src: string, reason: 'error' | 'timeout') {
    super(reason === 'timeout' ? `Timed out loading ${src}` : `Could not load ${src}`);
    this.name = 'ScriptLoadError';
    this.src = src;
    this.reason = reason;
  }
}

const DEFAULT_TIMEOUT_MS = 15_000;
const pending = new Map<string, Promise<void>>();

export function loadScript(src: string, options: LoadScriptOptions = {}): Promise<void> {
  const existing = pending.get(src);
  if (existing) return existing;
  const doc = options.document ?? document;
  const schedule = options.setTimeout ?? ((callback, ms) => globalThis.setTimeout(callback, ms));
  const cancel =
    options.clearTimeout ?? ((handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>));

  const promise = new Promise<void>((resolve, reject) => {
    const script = doc.createElement('script');
    script.src = src;
    script.async = true;
    const fail = (reason: 'error' | 'timeout') => {
      cancel(timer);
      script.remove();
      pending.delete(src);
      reject(new ScriptLoadError(src, reason));
    };
    const timer = schedule(() => fail('timeout'), options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    script.addEventListener('load', () => {
      cancel(timer);
      resolve();
    });
    script.addEventListener('error', () => fail('error'));
    doc.head.append(script);
  });
  pending.set(src, promise);
  return promise;
}
