#!/usr/bin/env node
// CPU time of `planwright status` against a bare `fetch` one-liner asking the same server the same thing.
//
// Both run as whole Node processes against one built server, alternately (the order swapped every
// round), each with bench/report-cpu.mjs preloaded to report its own CPU time (user + system) at exit.
// The ratio of the medians is what the CLI costs over the least a script can do. Target: ≤ 1.5 ×.
//
//   npm run build && node bench/cli-status.mjs [--runs 20] [--warmup 3]
//
// Prints a table for people, then, as its last line, the JSON result that bench/run.mjs collects.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startBuiltServer } from './built-server.mjs';
import { summarize } from './stats.mjs';

const TARGET_RATIO = 1.5;

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '20' }, warmup: { type: 'string', default: '3' } },
});
const runs = Number.parseInt(values.runs, 10);
const warmup = Number.parseInt(values.warmup, 10);
if (!(runs > 0) || !(warmup >= 0)) {
  console.error('cli-status: --runs must be a positive integer and --warmup a non-negative one');
  process.exit(2);
}

const bin = fileURLToPath(new URL('../packages/cli/dist/cli.js', import.meta.url));
const reporter = fileURLToPath(new URL('./report-cpu.mjs', import.meta.url));
if (!existsSync(bin)) {
  console.error(`cli-status: ${bin} is missing; run \`npm run build\` first`);
  process.exit(1);
}

const dataDir = mkdtempSync(join(tmpdir(), 'planwright-bench-cli-status-'));
const server = await startBuiltServer(dataDir);
try {
  const health = `${server.url}/api/v1/health/`;
  const subjects = [
    { name: 'planwright status', args: [bin, 'status', '--server', server.url], expect: /Status:\s+ok/ },
    {
      name: 'bare fetch one-liner',
      args: [
        '--input-type=module',
        '-e',
        `const r = await fetch(${JSON.stringify(health)}); const h = await r.json(); console.log(h.status, h.database, h.version);`,
      ],
      expect: /^ok /,
    },
  ];

  /** CPU milliseconds of one run, as the process itself counted them. */
  const cpuOf = (subject) => {
    const result = spawnSync(process.execPath, ['--import', reporter, ...subject.args], { encoding: 'utf8' });
    // A command that fails fast would look wonderfully cheap.
    if (result.status !== 0 || !subject.expect.test(result.stdout)) {
      throw new Error(`${subject.name} failed (exit ${result.status}): ${result.stderr || result.stdout}`);
    }
    const match = /@@cpu-ms ([\d.]+)/.exec(result.stderr);
    if (!match) throw new Error(`${subject.name} reported no CPU time`);
    return Number(match[1]);
  };

  const samples = new Map(subjects.map((subject) => [subject.name, []]));
  for (let round = 0; round < warmup + runs; round++) {
    for (const subject of round % 2 === 0 ? subjects : [...subjects].reverse()) {
      const ms = cpuOf(subject);
      if (round >= warmup) samples.get(subject.name)?.push(ms);
    }
  }
  const [cli, bare] = subjects.map((subject) => summarize(samples.get(subject.name) ?? []));
  const ratio = Math.round((cli.median / bare.median) * 100) / 100;
  const ok = ratio <= TARGET_RATIO;

  console.log(
    `${runs} measured runs each after ${warmup} warm-up runs, interleaved (Node ${process.version})`,
  );
  console.log(`planwright status: median ${cli.median} ms CPU (p90 ${cli.p90})`);
  console.log(`bare fetch:        median ${bare.median} ms CPU (p90 ${bare.p90})`);
  console.log(`ratio ${ratio} ×: ${ok ? 'within' : 'OVER'} the ${TARGET_RATIO} × target`);
  console.log(
    JSON.stringify({
      bench: 'cli-status',
      title: 'CLI: `planwright status` CPU against a bare fetch',
      method: `A built server on a fresh data directory; \`node packages/cli/dist/cli.js status --server URL\` and a \`node -e\` one-liner that fetches /api/v1/health/ and prints it, alternately (order swapped every round), ${warmup} warm-up rounds then ${runs} measured; each process reports its own user + system CPU time at exit (bench/report-cpu.mjs, preloaded into both).`,
      results: [
        { name: 'planwright status: CPU', unit: 'ms', ...cli, target: 'reported', pass: null },
        { name: 'bare fetch one-liner: CPU', unit: 'ms', ...bare, target: 'reported', pass: null },
        {
          name: 'CPU ratio planwright status / bare fetch (medians)',
          unit: '×',
          value: ratio,
          target: `≤ ${TARGET_RATIO} ×`,
          pass: ok,
        },
      ],
      notes: `Node ${process.version}. Both pay Node's start-up and its built-in fetch. The CLI adds, bundled into its chunks (packages/cli/tsup.config.ts): commander and the command definitions (~23 ms: \`--version\` against \`node -e 0\`), zod (~11 ms), the SDK's main entry (~35 ms, about 15 of them building the exported zod schemas at import) and undici 7's Agent (~15 ms, kept because Node 20's own pool can leave a reset request unsettled).`,
    }),
  );
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
