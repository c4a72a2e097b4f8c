import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from 'tsup';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The build of the `planwright` bin: one ESM entry plus the chunks that actions load lazily
 * (`splitting`), so `--help` and `--version` only load what they need.
 *
 * Dependencies stay external, except commander, the one package every run loads. It is CommonJS
 * spread over seven files, and loading it from ESM costs a resolve, a read and a CommonJS export
 * scan per file; bundled it is part of cli.js. Measured with bench/cli-version.mjs-style interleaved
 * runs on this 2-core machine: `--version` went from +21..39 ms to +13..15 ms over bare `node`.
 * Bundling CommonJS into ESM needs a real `require` in every output file (stack.md gotcha 6), hence
 * the second banner line. zod, the SDK and Ink stay external: they only load inside actions.
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
  noExternal: ['commander'],
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
