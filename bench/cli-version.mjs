#!/usr/bin/env node
// How long `planwright --version` takes, against bare `node -e 0` measured in the same run.
//
// Both commands are spawned the same way, alternating (and swapping which goes first every
// round), so machine noise and CPU frequency changes hit both alike; the difference of the medians is
// the cost of the CLI itself (loading cli.js, which has commander bundled in, and its startup chunks).
// Target: within 50 ms.
//
//   npm run build -w @planwright/cli && node bench/cli-version.mjs [--runs 30] [--warmup 10]
//
// Prints a table for people, then, as its last line, the JSON result that bench/run.mjs collects.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { summarize } from './stats.mjs';

const TARGET_MS = 50;

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '10' },
  },
});
const runs = Number.parseInt(values.runs, 10);
const warmup = Number.parseInt(values.warmup, 10);
if (!(runs > 0) || !(warmup >= 0)) {
  console.error('cli-version: --runs must be a positive integer and --warmup a non-negative one');
  process.exit(2);
}

const bin = fileURLToPath(new URL('../packages/cli/dist/cli.js', import.meta.url));
if (!existsSync(bin)) {
  console.error(`cli-version: ${bin} is missing; run \`npm run build -w @planwright/cli\` first`);
  process.exit(1);
}

/** @typedef {{ name: string, args: string[] }} Subject */
/** @type {Subject} */
const bare = { name: 'node -e 0', args: ['-e', '0'] };
/** @type {Subject} */
const cli = { name: 'planwright --version', args: [bin, '--version'] };

// Sanity check first: a CLI that fails fast would look wonderfully quick.
const check = spawnSync(process.execPath, cli.args, { encoding: 'utf8' });
if (check.status !== 0 || !/^\d+\.\d+\.\d+/.test(check.stdout)) {
  console.error(
    `cli-version: \`${cli.name}\` failed (exit ${check.status}): ${check.stderr || check.stdout}`,
  );
  process.exit(1);
}

/**
 * Wall-clock milliseconds of one run, from spawn to exit.
 * @param {Subject} subject
 */
function time(subject) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, subject.args, { stdio: 'ignore' });
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${subject.name} exited with ${result.status}`);
  return elapsed;
}

/** @type {Record<string, number[]>} */
const samples = { [bare.name]: [], [cli.name]: [] };
for (let round = 0; round < warmup + runs; round++) {
  const order = round % 2 === 0 ? [bare, cli] : [cli, bare];
  for (const subject of order) {
    const ms = time(subject);
    if (round >= warmup) samples[subject.name]?.push(ms);
  }
}

const node = summarize(samples[bare.name] ?? []);
const planwright = summarize(samples[cli.name] ?? []);
const round1 = (/** @type {number} */ n) => Math.round(n * 10) / 10;
const diffMedian = round1(planwright.median - node.median);
const diffP90 = round1(planwright.p90 - node.p90);
const ok = diffMedian <= TARGET_MS;

console.log(`${runs} measured runs each after ${warmup} warm-up runs, interleaved (Node ${process.version})`);
console.log('');
console.log(`${''.padEnd(22)}${'median'.padStart(9)}${'p90'.padStart(9)}${'min'.padStart(9)}`);
for (const [name, s] of [
  [bare.name, node],
  [cli.name, planwright],
]) {
  console.log(
    `${String(name).padEnd(22)}${`${s.median} ms`.padStart(9)}${`${s.p90} ms`.padStart(9)}${`${s.min} ms`.padStart(9)}`,
  );
}
console.log('');
console.log(
  `planwright --version costs ${diffMedian} ms over bare node at the median (${diffP90} ms at p90): ` +
    `${ok ? 'within' : 'OVER'} the ${TARGET_MS} ms target`,
);
console.log(
  JSON.stringify({
    bench: 'cli-version',
    title: 'CLI start-up: `planwright --version` against bare node',
    method: `Spawn \`node packages/cli/dist/cli.js --version\` and \`node -e 0\` alternately (the order swapped every round), ${warmup} warm-up rounds, then ${runs} measured rounds; wall time from spawn to exit. The difference of the medians is what the CLI adds to starting Node.`,
    results: [
      { name: 'planwright --version', unit: 'ms', ...planwright, target: 'reported', pass: null },
      { name: 'node -e 0 (same run)', unit: 'ms', ...node, target: 'reported', pass: null },
      {
        name: 'planwright --version minus node -e 0 (medians)',
        unit: 'ms',
        value: diffMedian,
        target: `≤ ${TARGET_MS} ms`,
        pass: ok,
      },
    ],
    notes: `Difference at p90: ${diffP90} ms. Node ${process.version}. Wall-clock times move with the machine's load; the difference, measured in the same run, moves much less.`,
  }),
);
