import {
  BaseTokenStore,
  BrowserStorageTokenStore,
  MemoryTokenStore,
  SESSION_STORAGE_KEYS,
  type SessionInfo,
  type SessionSnapshot,
  type StorageLike,
  type TokenStore,
} from '@planwright/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** A Storage-like map; `failing` makes the named operations throw like Safari's private mode. */
class FakeStorage implements StorageLike {
  readonly items = new Map<string, string>();
  failing = new Set<'getItem' | 'setItem' | 'removeItem'>();

  constructor(initial: Record<string, string> = {}) {
    for (const [key, value] of Object.entries(initial)) this.items.set(key, value);
  }
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
  snapshot(): Record<string, string> {
    return Object.fromEntries(this.items);
  }
}

const session = {
  token: 't1',
  email: 'ada@example.com',
  name: 'Ada',
  avatarUrl: 'https://img.example/a.png',
};

const stores: Array<[string, () => TokenStore]> = [
  ['MemoryTokenStore', () => new MemoryTokenStore()],
  ['BrowserStorageTokenStore', () => new BrowserStorageTokenStore({ storage: new FakeStorage() })],
];

describe.each(stores)('%s', (_name, create) => {
  it('starts signed out', () => {
    const store = create();
    expect(store.getToken()).toBeNull();
    expect(store.getSnapshot()).toEqual({ token: null, email: null, name: null, avatarUrl: null });
  });

  it('keeps the snapshot identity until something changes, and freezes it', () => {
    const store = create();
    const first = store.getSnapshot();
    expect(store.getSnapshot()).toBe(first);
    store.setSession(session);
    const second = store.getSnapshot();
    expect(second).not.toBe(first);
    expect(second).toEqual(session);
    expect(store.getSnapshot()).toBe(second);
    expect(Object.isFrozen(second)).toBe(true);
    expect(store.getToken()).toBe('t1');
  });

  it('notifies once per change and not for a change that changes nothing', () => {
    const store = create();
    const listener = vi.fn();
    store.subscribe(listener);
    store.setSession(session);
    const afterSignIn = store.getSnapshot();
    store.setSession({ ...session });
    expect(store.getSnapshot()).toBe(afterSignIn);
    store.setSession({ ...session, name: 'Ada L.' });
    store.clear();
    store.clear();
    expect(listener).toHaveBeenCalledTimes(3);
  });

  it('stops notifying after unsubscribe', () => {
    const store = create();
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    store.setSession(session);
    unsubscribe();
    store.clear();
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('replaces the whole session: fields left out become null', () => {
    const store = create();
    store.setSession(session);
    store.setSession({ token: 't2', email: 'bob@example.com' });
    expect(store.getSnapshot()).toEqual({
      token: 't2',
      email: 'bob@example.com',
      name: null,
      avatarUrl: null,
    });
  });

  it('refuses an empty token', () => {
    const store = create();
    expect(() => store.setSession({ token: '' })).toThrow(TypeError);
    expect(store.getToken()).toBeNull();
  });

  it('works with unbound methods, as useSyncExternalStore calls them', () => {
    const store = create();
    const { subscribe, getSnapshot, getToken } = store;
    const listener = vi.fn();
    subscribe(listener);
    store.setSession(session);
    expect(getSnapshot().token).toBe('t1');
    expect(getToken()).toBe('t1');
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('tells every listener even when one throws, then rethrows', () => {
    const store = create();
    const failure = new Error('listener bug');
    const later = vi.fn();
    store.subscribe(() => {
      throw failure;
    });
    store.subscribe(later);
    expect(() => store.setSession(session)).toThrow(failure);
    expect(later).toHaveBeenCalledTimes(1);
    expect(store.getToken()).toBe('t1');
  });
});

describe('BaseTokenStore', () => {
  /** What the CLI's file store looks like: a persisted record, read once and written on every change. */
  class RecordStore extends BaseTokenStore {
    loads = 0;
    readonly saved: SessionSnapshot[] = [];
    constructor(private readonly record: Partial<SessionInfo> | null) {
      super();
    }
    protected load() {
      this.loads++;
      return this.record;
    }
    protected save(next: SessionSnapshot) {
      this.saved.push(next);
    }
  }

  it('loads once, lazily, and saves each change', () => {
    const store = new RecordStore({ token: 'from-file', name: '' });
    expect(store.loads).toBe(0);
    expect(store.getSnapshot()).toEqual({ token: 'from-file', email: null, name: null, avatarUrl: null });
    store.getToken();
    expect(store.loads).toBe(1);
    store.setSession({ token: 'next' });
    store.setSession({ token: 'next' });
    store.clear();
    expect(store.saved.map((s) => s.token)).toEqual(['next', null]);
  });

  it('treats a record without a token as signed out', () => {
    expect(new RecordStore({ email: 'e@x.io' }).getSnapshot().email).toBeNull();
    expect(new RecordStore(null).getToken()).toBeNull();
  });
});

describe('MemoryTokenStore', () => {
  it('can start with a session', () => {
    const store = new MemoryTokenStore({ token: 'from-file', email: 'a@b.co' });
    expect(store.getSnapshot()).toEqual({ token: 'from-file', email: 'a@b.co', name: null, avatarUrl: null });
  });
});

describe('BrowserStorageTokenStore', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('uses exactly the keys of spec 000 §3', () => {
    expect(SESSION_STORAGE_KEYS).toEqual({
      token: 'sessionToken',
      email: 'userEmail',
      name: 'userName',
      avatarUrl: 'avatarUrl',
    });
  });

  it('writes the session under those keys and clear() removes all four', () => {
    const storage = new FakeStorage({ theme: 'coffee' });
    const store = new BrowserStorageTokenStore({ storage });
    store.setSession(session);
    expect(storage.snapshot()).toEqual({
      theme: 'coffee',
      sessionToken: 't1',
      userEmail: 'ada@example.com',
      userName: 'Ada',
      avatarUrl: 'https://img.example/a.png',
    });
    store.setSession({ token: 't2' });
    expect(storage.snapshot()).toEqual({ theme: 'coffee', sessionToken: 't2' });
    store.setSession(session);
    store.clear();
    expect(storage.snapshot()).toEqual({ theme: 'coffee' });
  });

  it('reads a session stored earlier (by this or older code)', () => {
    const storage = new FakeStorage({
      sessionToken: 'kept',
      userEmail: 'e@x.io',
      userName: 'E',
      avatarUrl: '',
    });
    const store = new BrowserStorageTokenStore({ storage });
    expect(store.getSnapshot()).toEqual({ token: 'kept', email: 'e@x.io', name: 'E', avatarUrl: null });
  });

  it('treats leftover details without a token as signed out', () => {
    const storage = new FakeStorage({ userEmail: 'stale@x.io', userName: 'Stale' });
    expect(new BrowserStorageTokenStore({ storage }).getSnapshot().email).toBeNull();
  });

  it('looks up globalThis.localStorage lazily, on first use', () => {
    const store = new BrowserStorageTokenStore();
    const storage = new FakeStorage({ sessionToken: 'from-local-storage' });
    vi.stubGlobal('localStorage', storage);
    expect(store.getToken()).toBe('from-local-storage');
    store.clear();
    expect(storage.snapshot()).toEqual({});
  });

  it('works from memory when there is no localStorage at all', () => {
    vi.stubGlobal('localStorage', undefined);
    const store = new BrowserStorageTokenStore();
    store.setSession(session);
    expect(store.getToken()).toBe('t1');
  });

  it('works from memory when merely touching localStorage throws (sandboxed iframe, cookies blocked)', () => {
    Object.defineProperty(globalThis, 'localStorage', {
      configurable: true,
      get() {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
    });
    try {
      const store = new BrowserStorageTokenStore();
      expect(store.getToken()).toBeNull();
      store.setSession(session);
      expect(store.getToken()).toBe('t1');
      store.clear();
      expect(store.getToken()).toBeNull();
    } finally {
      Reflect.deleteProperty(globalThis, 'localStorage');
    }
  });

  it('keeps working in memory when writes throw (Safari private mode)', () => {
    const storage = new FakeStorage();
    storage.failing.add('setItem');
    const store = new BrowserStorageTokenStore({ storage });
    const listener = vi.fn();
    store.subscribe(listener);
    expect(() => store.setSession(session)).not.toThrow();
    expect(store.getSnapshot()).toEqual(session);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(storage.snapshot()).toEqual({});
  });

  it('signs out in memory even when storage refuses removals', () => {
    const storage = new FakeStorage();
    const store = new BrowserStorageTokenStore({ storage });
    store.setSession(session);
    storage.failing.add('removeItem');
    expect(() => store.clear()).not.toThrow();
    expect(store.getToken()).toBeNull();
  });

  it('starts signed out when reads throw', () => {
    const storage = new FakeStorage({ sessionToken: 'unreachable' });
    storage.failing.add('getItem');
    expect(new BrowserStorageTokenStore({ storage }).getToken()).toBeNull();
  });

  it('does not read storage before first use', () => {
    const storage = new FakeStorage({ sessionToken: 'later' });
    const getItem = vi.spyOn(storage, 'getItem');
    const store = new BrowserStorageTokenStore({ storage });
    expect(getItem).not.toHaveBeenCalled();
    expect(store.getToken()).toBe('later');
    store.getSnapshot();
    expect(getItem).toHaveBeenCalledTimes(4);
  });
});
