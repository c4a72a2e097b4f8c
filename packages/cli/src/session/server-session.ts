import type { CliIo } from '../cli-io.js';
import { configFilePath, readConfigFile } from '../config/config-file.js';
import { type ResolvedServerUrl, resolveServerUrl } from '../config/server-url.js';
import { FileTokenStore } from './file-token-store.js';
import { sessionFilePath } from './session-file.js';

/** The server a command talks to and the stored session for it. */
export interface ServerSession {
  readonly server: ResolvedServerUrl;
  readonly store: FileTokenStore;
}

/**
 * Picks the server (`--server`, `PLANWRIGHT_SERVER`, the config file, the default) and opens its
 * session from `session.json`.
 *
 * @throws UsageError for a bad `PLANWRIGHT_SERVER`; ConfigFileError / SessionFileError for broken files.
 */
export async function openServerSession(io: CliIo, serverFlag: string | undefined): Promise<ServerSession> {
  const server = await resolveServerUrl({
    flag: serverFlag,
    io,
    readConfiguredServer: async () => (await readConfigFile(configFilePath(io))).server,
  });
  const store = await FileTokenStore.open(sessionFilePath(io), server.url);
  return { server, store };
}
