#!/usr/bin/env node
// `npm start`: build what is missing or out of date, then run the server in this process.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from './build.mjs';

try {
  build({ only: ['@planwright/sdk', '@planwright/server', '@planwright/web'] });
} catch (error) {
  process.stderr.write(`npm start: ${error.message}\n`);
  process.exit(1);
}
await import(join(fileURLToPath(new URL('../', import.meta.url)), 'packages/server/dist/server.js'));
