import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from 'tsup';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The build of the `planwright` bin: one ESM entry plus the chunks that actions load lazily
 * (`splitting`), so `--help` and `--version` only load what they need.
 *
 * Dependencies stay external, except the ones `planwright status` loads: commander (every run), zod, the
 * SDK, undici's Agent and env-paths. Loaded from node_modules, each costs a resolve, a read and a compile per
 * file (zod alone is 95 files, 64 of them locales no command uses); bundled, only what is used remains, in a
 * few chunks. Measured with bench/cli-status.mjs (`planwright status` against a bare `fetch`, CPU): 2.01 × →
 * about 1.5 × (docs/benchmarks.md). zod, the SDK and Ink still only load inside the actions that need them
 * (`--help` loads none of them: test/binary.test.ts reads each loaded chunk's source map to check).
 * Bundling CommonJS into ESM needs a real `require` in every output file (stack.md gotcha 6), hence
 * the second banner line.
 *
 * Paths are absolute so test/binary.test.ts can run this same build in-process from another
 * working directory; tsup resolves relative ones against `process.cwd()`.
 */
export const cliBuildOptions = {
  // The convert worker is an entry of its own: a worker thread loads it by file name (convert-in-worker.ts).
  entry: { cli: here('./src/cli.ts'), 'convert-worker': here('./src/transfer/convert-worker.ts') },
  outDir: here('./dist'),
  tsconfig: here('./tsconfig.json'),
  // tsup reads `dependencies` from the package.json in `process.cwd()`; name ours explicitly.
  external: [here('./package.json')],
  noExternal: ['commander', 'zod', '@planwright/sdk', 'undici', 'env-paths'],
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  splitting: true,
  sourcemap: true,
  clean: true,
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
  },
} satisfies Options;

export default defineConfig(cliBuildOptions);
