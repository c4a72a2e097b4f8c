// Preloaded with `node --import` into each process bench/cli-status.mjs times: at exit it writes the
// process's whole CPU time (user + system, bootstrap included) to stderr as `@@cpu-ms N`.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  writeSync(2, `\n@@cpu-ms ${(user + system) / 1000}\n`);
});
