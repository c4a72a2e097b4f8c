import {
  AbortedError,
  createStorageDraftStore,
  DOCUMENT_SAVE_DEBOUNCE_MS,
  type Draft,
  type DraftStorage,
  draftKey,
  SaveController,
  type SaveControllerOptions,
  type SaveSnapshot,
  type SaveTransportResult,
} from '@planwright/sdk';
import { afterEach, beforeEach, expect } from 'vitest';
import { ManualClock } from './manual-clock.js';

/** The content the tests save: a stand-in for the editor's JSON tree. */
export interface Doc {
  text: string;
}

export function isDoc(value: unknown): value is Doc {
  return (
    typeof value === 'object' && value !== null && typeof (value as { text?: unknown }).text === 'string'
  );
}

/** A Storage-like map; `failing` makes the named operations throw like Safari's private mode. */
export class FakeStorage implements DraftStorage {
  readonly items = new Map<string, string>();
  readonly failing = new Set<'getItem' | 'setItem' | 'removeItem'>();

  getItem(key: string): string | null {
    if (this.failing.has('getItem')) throw new DOMException('denied', 'SecurityError');
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    if (this.failing.has('setItem')) throw new DOMException('quota', 'QuotaExceededError');
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    if (this.failing.has('removeItem')) throw new DOMException('denied', 'SecurityError');
    this.items.delete(key);
  }
  get length(): number {
    return this.items.size;
  }
  key(index: number): string | null {
    return [...this.items.keys()][index] ?? null;
  }
}

/** One `write` call the fake transport holds until the test answers it. */
export interface PendingWrite {
  content: Doc;
  ifMatch: number | null;
  keepalive: boolean;
  signal: AbortSignal;
  settled: boolean;
  resolve(result: SaveTransportResult<Doc>): void;
  reject(error: unknown): void;
}

/** One `fetchLatest` call the test answers. */
export interface PendingFetch {
  signal: AbortSignal;
  resolve(latest: { content: Doc; revision: number | null }): void;
  reject(error: unknown): void;
}

/** One write aside (S26) the controller started, held until the test answers it. */
export interface PendingAside {
  /** What the caller asked for, to tell write asides apart. */
  label: string;
  ifMatch: number | null;
  signal: AbortSignal;
  settled: boolean;
  /** Answers as the write would: normally `{ revision, value }`, garbage in hostile tests. */
  resolve(answer: unknown): void;
  reject(error: unknown): void;
}

/** How the promise `writeAside()` returned has settled so far. */
export type AsideOutcome =
  | { state: 'pending' }
  | { state: 'resolved'; value: unknown }
  | { state: 'rejected'; error: unknown };

/** Lets every promise callback that is ready run (a macrotask turn; no time passes on any clock). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export const DRAFT_KEY = draftKey('document', 'doc-1');

export interface HarnessOptions extends Partial<SaveControllerOptions<Doc>> {
  /** Leave `fetchLatest` out. */
  noFetchLatest?: boolean;
  /** Share browser storage with another harness (a reload of the same page). */
  storage?: FakeStorage;
}

/** A controller wired to a fake editor, a fake transport, a manual clock and a fake `localStorage`. */
export function createHarness(options: HarnessOptions = {}) {
  const { noFetchLatest, storage = new FakeStorage(), ...overrides } = options;
  const clock = new ManualClock();
  const drafts = createStorageDraftStore<Doc>({
    storage: () => storage,
    key: DRAFT_KEY,
    parse: (value) => (isDoc(value) ? { text: value.text } : null),
  });
  const editor = { text: '', reads: 0 };
  const writes: PendingWrite[] = [];
  const fetches: PendingFetch[] = [];
  const asides: PendingAside[] = [];

  const controller = new SaveController<Doc>({
    read: () => {
      editor.reads += 1;
      return { text: editor.text };
    },
    write: (content, context) =>
      new Promise((resolve, reject) => {
        const write: PendingWrite = {
          content,
          ...context,
          settled: false,
          resolve: (result) => {
            write.settled = true;
            resolve(result);
          },
          reject: (error) => {
            write.settled = true;
            reject(error);
          },
        };
        // As fetch does: an aborted request rejects (S27's time-out aborts a save with no answer).
        context.signal.addEventListener('abort', () => {
          if (!write.settled) write.reject(new AbortedError({ reason: context.signal.reason }));
        });
        writes.push(write);
      }),
    ...(noFetchLatest
      ? {}
      : {
          fetchLatest: (signal: AbortSignal) =>
            new Promise<{ content: Doc; revision: number | null }>((resolve, reject) => {
              fetches.push({ signal, resolve, reject });
            }),
        }),
    debounceMs: DOCUMENT_SAVE_DEBOUNCE_MS,
    clock,
    random: () => 0.5,
    drafts,
    ...overrides,
  });

  const open = () => writes.filter((write) => !write.settled);
  const openAsides = () => asides.filter((aside) => !aside.settled);
  const only = (): PendingWrite => {
    const pending = open();
    if (pending.length !== 1) throw new Error(`expected exactly one write out, found ${pending.length}`);
    return pending[0] as PendingWrite;
  };

  return {
    clock,
    storage,
    drafts,
    editor,
    controller,
    writes,
    fetches,
    asides,
    open,
    only,
    openAsides,
    /**
     * Asks for a write aside (a settings write) that the test answers through `asides`; `outcome` tracks the
     * caller's promise, which therefore never counts as unhandled.
     */
    writeAside(label = 'settings'): { promise: Promise<unknown>; outcome: AsideOutcome } {
      const tracked: { outcome: AsideOutcome } = { outcome: { state: 'pending' } };
      const promise = controller.writeAside<unknown>(
        (context) =>
          new Promise((resolve, reject) => {
            const aside: PendingAside = {
              label,
              ...context,
              settled: false,
              resolve: (answer) => {
                aside.settled = true;
                resolve(answer as never);
              },
              reject: (error) => {
                aside.settled = true;
                reject(error);
              },
            };
            asides.push(aside);
          }),
      );
      promise.then(
        (value) => {
          tracked.outcome = { state: 'resolved', value };
        },
        (error: unknown) => {
          tracked.outcome = { state: 'rejected', error };
        },
      );
      return {
        promise,
        get outcome() {
          return tracked.outcome;
        },
      };
    },
    /** Answers the one write aside out and lets the controller hear it. */
    async answerAside(answer: unknown): Promise<PendingAside> {
      const pending = openAsides();
      if (pending.length !== 1)
        throw new Error(`expected exactly one write aside out, found ${pending.length}`);
      const aside = pending[0] as PendingAside;
      aside.resolve(answer);
      await settle();
      return aside;
    },
    /** Fails the one write aside out. */
    async failAside(error: unknown): Promise<PendingAside> {
      const pending = openAsides();
      if (pending.length !== 1)
        throw new Error(`expected exactly one write aside out, found ${pending.length}`);
      const aside = pending[0] as PendingAside;
      aside.reject(error);
      await settle();
      return aside;
    },
    snapshot: (): SaveSnapshot<Doc> => controller.getSnapshot(),
    storedDraft: (): Draft<Doc> | null => drafts.read(),
    /** The user types: the editor changes, then tells the controller. */
    type(text: string): void {
      editor.text = text;
      controller.edit();
    },
    /** The first load: the editor shows `text` (or the restored draft). */
    load(text = 'server', revision: number | null = 1): Draft<Doc> | null {
      editor.text = text;
      const draft = controller.loaded({ text }, revision);
      if (draft) editor.text = draft.content.text;
      return draft;
    },
    /** Answers the one write out with success and lets the controller hear it. */
    async succeed(revision: number | null): Promise<PendingWrite> {
      const write = only();
      write.resolve({ revision });
      await settle();
      return write;
    },
    /** Answers the one write out with `error`. */
    async fail(error: unknown): Promise<PendingWrite> {
      const write = only();
      write.reject(error);
      await settle();
      return write;
    },
  };
}

export type Harness = ReturnType<typeof createHarness>;

export { ManualClock };

/**
 * Fails each test of the file that lets a rejection go unhandled: none may escape the controller (S21, S26).
 * Call once at the top of a test file.
 */
export function failOnUnhandledRejections(): void {
  let unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => {
    unhandled.push(reason);
  };
  beforeEach(() => {
    unhandled = [];
    process.on('unhandledRejection', onUnhandled);
  });
  afterEach(async () => {
    await settle();
    process.off('unhandledRejection', onUnhandled);
    expect(unhandled).toEqual([]);
  });
}
