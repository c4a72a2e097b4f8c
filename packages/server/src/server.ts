#!/usr/bin/env node
import { loadConfig } from './config/config.js';
import { installGracefulShutdown } from './lifecycle/graceful-shutdown.js';
import { createServer } from './runtime.js';

// The only file that listens. Configuration errors print one clear message and exit 1.
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    process.stderr.write(`planwright-server: ${(error as Error).message}\n`);
    process.exit(1);
  }
  const app = await createServer(config);
  installGracefulShutdown(app, { timeoutMs: config.shutdownTimeoutMs });
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = config.publicUrl.replace(/:\d+$/, `:${port}`);
  app.log.info({ url, database: config.database.kind }, `Planwright is running at ${url}`);
  if (process.stdout.isTTY || process.env.PLANWRIGHT_PRINT_URL !== '0') {
    process.stdout.write(`\n  Planwright is running at ${url}\n\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`planwright-server: could not start: ${(error as Error).message ?? String(error)}\n`);
  process.exit(1);
});
