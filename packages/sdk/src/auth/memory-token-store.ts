import { BaseTokenStore, type SessionInfo } from './token-store.js';

/** Keeps the session in memory only: the default for scripts, tests and server-side use. */
export class MemoryTokenStore extends BaseTokenStore {
  private readonly initial: SessionInfo | undefined;

  /** Starts signed out, or with `initial` (for a token read from elsewhere). */
  constructor(initial?: SessionInfo) {
    super();
    this.initial = initial;
  }

  protected load(): SessionInfo | null {
    return this.initial ?? null;
  }

  protected save(): void {}
}
