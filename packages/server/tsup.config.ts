import { defineConfig } from 'tsup';

export default defineConfig({
  // Named entries: dist/admin.js sits beside server.js, where package-paths.ts expects every entry.
  entry: {
    index: 'src/index.ts',
    server: 'src/server.ts',
    admin: 'src/admin/admin.ts',
    // Loaded by path into worker threads (formats/conversion-pool.ts).
    'conversion-worker': 'src/conversion-worker.ts',
  },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  // The package tsconfig is composite (for tsc -b); the declaration build is a plain one.
  dts: { entry: 'src/index.ts', compilerOptions: { ignoreDeprecations: '6.0', composite: false } },
  sourcemap: true,
  clean: true,
  splitting: true,
});
