import { BaseTokenStore, type SessionSnapshot } from '@planwright/sdk';
import {
  readSessionFile,
  type StoredSession,
  sessionFor,
  updateSessionFile,
  withSession,
} from './session-file.js';

/**
 * The SDK token store of one server's session, kept in `session.json`.
 *
 * The SDK's stores are synchronous (`load()` and `save()` return nothing to wait for) while file
 * access here is asynchronous, so: {@link FileTokenStore.open} reads the file before the store is
 * created, and each change is queued as a write, in order, that {@link FileTokenStore.flush} waits
 * for. Commands flush before they report success, so "signed in" is never printed for a token that
 * did not reach the disk, and a failed write surfaces as a `SessionFileError` instead of being lost
 * (the SDK's `save()` must not throw).
 */
export class FileTokenStore extends BaseTokenStore {
  readonly path: string;
  readonly serverUrl: string;
  private readonly initial: StoredSession | null;
  private writes: Promise<void> = Promise.resolve();
  private failure: { error: unknown } | undefined;

  private constructor(path: string, serverUrl: string, initial: StoredSession | null) {
    super();
    this.path = path;
    this.serverUrl = serverUrl;
    this.initial = initial;
  }

  /**
   * The store of `serverUrl`'s session in the file at `path`.
   *
   * @throws SessionFileError when the file exists but is unreadable or invalid.
   */
  static async open(path: string, serverUrl: string): Promise<FileTokenStore> {
    const file = await readSessionFile(path);
    return new FileTokenStore(path, serverUrl, sessionFor(file, serverUrl) ?? null);
  }

  protected load(): StoredSession | null {
    return this.initial;
  }

  protected save(next: SessionSnapshot): void {
    this.writes = this.writes
      .then(() => updateSessionFile(this.path, (file) => withSession(file, this.serverUrl, next)))
      .then(
        () => {},
        (error: unknown) => {
          this.failure ??= { error };
        },
      );
  }

  /**
   * Waits until every change so far is on disk.
   *
   * @throws SessionFileError the first write that failed since the last flush.
   */
  async flush(): Promise<void> {
    await this.writes;
    const failure = this.failure;
    this.failure = undefined;
    if (failure) throw failure.error;
  }
}
