/**
 * Checks that a Planwright server is up and tells what it runs on.
 *
 *   npx tsx examples/server-status.ts [server-url]
 *
 * The URL defaults to PLANWRIGHT_SERVER, then http://127.0.0.1:8787. Exits 1 with one line when the
 * server cannot be reached or answers something else than a healthy server.
 */
import { createPlanwrightClient } from '@planwright/sdk';
import { failureLine, serverUrl } from './example-support.js';

const baseUrl = serverUrl(process.argv[2]);
const client = createPlanwrightClient({ baseUrl });

try {
  const health = await client.site.health();
  console.log(`${baseUrl}: ${health.status}, database ${health.database}, version ${health.version}`);
} catch (error) {
  console.error(`${baseUrl}: not healthy: ${failureLine(error)}`);
  process.exitCode = 1;
}
