#!/usr/bin/env node
// Builds the packages in dependency order, skipping any whose inputs are older than its last build.
// `--force` rebuilds everything; `--only <name>[,<name>]` builds just those packages (the packages' `prepack`).
// Used by `npm run build` (and so `npm test`), by `npm start` and, with `--prepare`, by the root `prepare`
// script that `npm install` and `npm ci` run, so `npx planwright` works right after an install.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const shared = ['../../package-lock.json', 'package.json', 'tsconfig.json'];

/** In build order: the server and the CLI import the SDK's build; the web app bundles the SDK's source. */
export const PACKAGES = [
  { name: '@planwright/sdk', dir: 'packages/sdk', inputs: [...shared, 'src', 'tsup.config.ts'] },
  {
    name: '@planwright/server',
    dir: 'packages/server',
    inputs: [...shared, 'src', 'drizzle', 'tsup.config.ts'],
  },
  { name: '@planwright/cli', dir: 'packages/cli', inputs: [...shared, 'src', 'tsup.config.ts'] },
  {
    name: '@planwright/web',
    dir: 'packages/web',
    inputs: [...shared, 'src', 'public', 'scripts', 'index.html', 'vite.config.ts', '../sdk/src'],
  },
];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/**
 * Builds what is out of date. Returns the names of the packages it built; throws when a build fails.
 * @param {{ force?: boolean, only?: string[] }} [options]
 */
export function build(options = {}) {
  const built = [];
  for (const pkg of PACKAGES) {
    if (options.only && !options.only.includes(pkg.name)) continue;
    const dir = join(root, pkg.dir);
    const stamp = join(dir, 'dist', '.build-stamp');
    const builtAt = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
    const changedAt = Math.max(...pkg.inputs.map((input) => newestMtime(join(dir, input))));
    if (!options.force && builtAt > changedAt) continue;
    // Progress and the build tools' output go to stderr: `npm pack --json` (whose `prepack` runs this) keeps
    // stdout for its JSON answer.
    process.stderr.write(`Building ${pkg.name}…\n`);
    // Always a production build: started from a test run (NODE_ENV=test), Vite would bundle React's
    // development runtime.
    const result = spawnSync('npm', ['run', 'build', '-w', pkg.name], {
      cwd: root,
      stdio: ['inherit', 2, 2],
      env: { ...process.env, NODE_ENV: 'production' },
    });
    if (result.status !== 0) throw new Error(`building ${pkg.name} failed (exit ${result.status})`);
    writeFileSync(stamp, new Date().toISOString());
    built.push(pkg.name);
  }
  return built;
}

/** The value after `flag` on the command line, split on commas; undefined when the flag is absent. */
function listArgument(argv, flag) {
  const index = argv.indexOf(flag);
  if (index === -1) return undefined;
  const value = argv[index + 1];
  const names = value ? value.split(',').filter(Boolean) : [];
  const unknown = names.filter((name) => !PACKAGES.some((pkg) => pkg.name === name));
  if (names.length === 0 || unknown.length > 0) {
    throw new Error(
      `${flag} takes package names (${PACKAGES.map((pkg) => pkg.name).join(', ')}); got ${value ?? 'nothing'}`,
    );
  }
  return names;
}

/** Whether the build tools are installed: `npm ci --omit=dev` (a production install) leaves them out. */
function buildToolsInstalled() {
  return (
    existsSync(join(root, 'node_modules/tsup/package.json')) &&
    existsSync(join(root, 'node_modules/vite/package.json'))
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const argv = process.argv.slice(2);
    if (argv.includes('--prepare') && !buildToolsInstalled()) {
      // A production install without devDependencies cannot build; it must not fail because of that.
      process.stderr.write(
        'prepare: the build tools are not installed (--omit=dev?), so nothing was built.\n',
      );
      process.exit(0);
    }
    const built = build({ force: argv.includes('--force'), only: listArgument(argv, '--only') });
    process.stderr.write(built.length ? `Built ${built.join(', ')}.\n` : 'Everything is up to date.\n');
  } catch (error) {
    process.stderr.write(`build: ${error.message}\n`);
    process.exit(1);
  }
}
