import { BaseTokenStore, type SessionInfo, type SessionSnapshot } from './token-store.js';

/** The keys the web app has always used in browser storage (spec 000 §3 "Browser-stored values"). */
export const SESSION_STORAGE_KEYS = {
  token: 'sessionToken',
  email: 'userEmail',
  name: 'userName',
  avatarUrl: 'avatarUrl',
} as const;

/** The part of the Web Storage API the store needs (`localStorage`, `sessionStorage`, or a fake). */
export interface StorageLike {
  /** The value stored under `key`, or `null` when there is none. */
  getItem(key: string): string | null;
  /** Stores `value` under `key`; may throw (quota exceeded, storage blocked). */
  setItem(key: string, value: string): void;
  /** Removes what is stored under `key`. */
  removeItem(key: string): void;
}

/** Options for {@link BrowserStorageTokenStore}. */
export interface BrowserStorageTokenStoreOptions {
  /** Defaults to `globalThis.localStorage`, looked up on first use. */
  storage?: StorageLike;
}

/**
 * Storage is allowed to fail everywhere: merely reading `globalThis.localStorage` throws a
 * SecurityError in sandboxed iframes and with cookies blocked, and `setItem` throws QuotaExceededError
 * in Safari's private mode. In all those cases the session still works for this page, from memory.
 */
function attempt<T>(run: () => T, fallback: T): T {
  try {
    return run();
  } catch {
    return fallback;
  }
}

function defaultStorage(): StorageLike | undefined {
  return attempt(() => (globalThis as { localStorage?: StorageLike }).localStorage, undefined);
}

/**
 * Keeps the session in browser storage under `sessionToken`, `userEmail`, `userName` and `avatarUrl`, so
 * it survives reloads and is shared with code that reads those keys. Changes made by other tabs are not
 * observed; a stale token is cleared by the next 401 anyway.
 */
export class BrowserStorageTokenStore extends BaseTokenStore {
  private readonly injected: StorageLike | undefined;

  constructor(options: BrowserStorageTokenStoreOptions = {}) {
    super();
    this.injected = options.storage;
  }

  private storage(): StorageLike | undefined {
    return this.injected ?? defaultStorage();
  }

  protected load(): Partial<SessionInfo> | null {
    const storage = this.storage();
    if (!storage) return null;
    const read = (key: string) => attempt(() => storage.getItem(key), null);
    return {
      token: read(SESSION_STORAGE_KEYS.token) ?? '',
      email: read(SESSION_STORAGE_KEYS.email),
      name: read(SESSION_STORAGE_KEYS.name),
      avatarUrl: read(SESSION_STORAGE_KEYS.avatarUrl),
    };
  }

  protected save(next: SessionSnapshot): void {
    const storage = this.storage();
    if (!storage) return;
    // Key by key, so one failing write does not keep the others from being removed or written.
    for (const field of ['token', 'email', 'name', 'avatarUrl'] as const) {
      const key = SESSION_STORAGE_KEYS[field];
      const value = next[field];
      attempt(() => (value === null ? storage.removeItem(key) : storage.setItem(key, value)), undefined);
    }
  }
}
