import { BaseTokenStore, type SessionSnapshot, type TokenStore } from '@planwright/sdk';
import { type CliIo, readEnv } from '../cli-io.js';
import { configFilePath, readConfigFile } from '../config/config-file.js';
import { type ResolvedServerUrl, resolveServerUrl } from '../config/server-url.js';
import { TOKEN_ENV } from '../login/personal-token.js';
import { FileTokenStore } from './file-token-store.js';
import { sessionFilePath } from './session-file.js';

/** A token store whose changes a command waits for before it reports success. */
export interface SessionStore extends TokenStore {
  /** Waits until every change so far is kept (on disk for `session.json`; nothing to wait for otherwise). */
  flush(): Promise<void>;
}

/** Where a command's token comes from: `session.json`, or `PLANWRIGHT_TOKEN`. */
export type TokenSource = 'file' | 'env';

/** The server a command talks to and the session for it. */
export interface ServerSession {
  readonly server: ResolvedServerUrl;
  readonly store: SessionStore;
  /** `env` when `PLANWRIGHT_TOKEN` is used: then `store` is in memory only, and nothing is ever written. */
  readonly tokenSource: TokenSource;
}

/**
 * The token of `PLANWRIGHT_TOKEN`, in memory: the SDK may forget it (a 401 proves it dead) or refresh the name
 * it shows, but nothing of it reaches `session.json`.
 */
class EnvTokenStore extends BaseTokenStore {
  private readonly token: string;

  constructor(token: string) {
    super();
    this.token = token;
  }

  protected load() {
    return { token: this.token };
  }

  protected save(_next: SessionSnapshot): void {}

  async flush(): Promise<void> {}
}

/**
 * Picks the server (`--server`, `PLANWRIGHT_SERVER`, the config file, the default) and opens its session from
 * `session.json`; with `useTokenEnv`, a non-empty `PLANWRIGHT_TOKEN` is the session instead (the file is then
 * not even read). `login` and `logout` work on the file alone.
 *
 * @throws UsageError for a bad `PLANWRIGHT_SERVER`; ConfigFileError / SessionFileError for broken files.
 */
export async function openServerSession(
  io: CliIo,
  serverFlag: string | undefined,
  options: { useTokenEnv?: boolean } = {},
): Promise<ServerSession> {
  const server = await resolveServerUrl({
    flag: serverFlag,
    io,
    readConfiguredServer: async () => (await readConfigFile(configFilePath(io))).server,
  });
  const fromEnv = options.useTokenEnv === true ? readEnv(io, TOKEN_ENV)?.trim() : undefined;
  if (fromEnv !== undefined) return { server, store: new EnvTokenStore(fromEnv), tokenSource: 'env' };
  const store = await FileTokenStore.open(sessionFilePath(io), server.url);
  return { server, store, tokenSource: 'file' };
}
