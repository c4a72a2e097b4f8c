import { type Listener, Subscribable } from '../state/subscribable.js';

/** The signed-in session as the UI sees it. Immutable; a new object only when something changed. */
export interface SessionSnapshot {
  readonly token: string | null;
  readonly email: string | null;
  readonly name: string | null;
  readonly avatarUrl: string | null;
}

/** What a successful sign-in hands to {@link TokenStore.setSession}. */
export interface SessionInfo {
  token: string;
  email?: string | null;
  name?: string | null;
  avatarUrl?: string | null;
}

/** Where the session token lives: memory, browser storage, or a file for the CLI. */
export interface TokenStore {
  /** The session token, or `null` when signed out. */
  getToken(): string | null;
  /** Replaces the whole session (fields left out become `null`). */
  setSession(session: SessionInfo): void;
  /** Signs out locally: forgets the token and the user's details. */
  clear(): void;
  /** Calls `listener` after every change; returns the function that stops it. */
  subscribe(listener: Listener): () => void;
  /** The current session; the same object until something changes. */
  getSnapshot(): SessionSnapshot;
}

const SIGNED_OUT: SessionSnapshot = Object.freeze({ token: null, email: null, name: null, avatarUrl: null });

/** Empty strings count as missing: a stored `''` token must not be sent as `X-Session-Token: `. */
function orNull(value: string | null | undefined): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** A frozen snapshot; a missing or empty token means signed out, whatever else is there. */
function toSnapshot(session: Partial<SessionInfo> | null | undefined): SessionSnapshot {
  const token = orNull(session?.token);
  if (token === null) return SIGNED_OUT;
  return Object.freeze({
    token,
    email: orNull(session?.email),
    name: orNull(session?.name),
    avatarUrl: orNull(session?.avatarUrl),
  });
}

function sameSession(a: SessionSnapshot, b: SessionSnapshot): boolean {
  return a.token === b.token && a.email === b.email && a.name === b.name && a.avatarUrl === b.avatarUrl;
}

/**
 * The snapshot and subscription logic every token store shares. A store only says how to `load` the
 * session once (lazily, on first use, so globals such as `localStorage` are read at call time) and how
 * to `save` each change.
 */
export abstract class BaseTokenStore extends Subscribable implements TokenStore {
  private snapshot: SessionSnapshot | undefined;

  /**
   * Reads the persisted session; called once, on first use. Return `null` (or no token) when signed out;
   * empty strings count as missing.
   */
  protected abstract load(): Partial<SessionInfo> | null;
  /** Persists a changed session. Must not throw: a store that cannot persist still works in memory. */
  protected abstract save(next: SessionSnapshot): void;

  /** The current session; the same object until something changes. Safe to pass unbound. */
  readonly getSnapshot = (): SessionSnapshot => {
    this.snapshot ??= toSnapshot(this.load());
    return this.snapshot;
  };

  /** The session token, or `null` when signed out. Safe to pass unbound. */
  readonly getToken = (): string | null => this.getSnapshot().token;

  /** Replaces the whole session (fields left out become `null`); throws a `TypeError` for an empty token. */
  setSession(session: SessionInfo): void {
    if (orNull(session.token) === null) {
      throw new TypeError('setSession needs a non-empty token; call clear() to sign out.');
    }
    this.replace(toSnapshot(session));
  }

  /** Signs out locally: forgets the token and the user's details. */
  clear(): void {
    this.replace(SIGNED_OUT);
  }

  private replace(next: SessionSnapshot): void {
    if (sameSession(this.getSnapshot(), next)) return;
    this.snapshot = next;
    this.save(next);
    this.notify();
  }
}
