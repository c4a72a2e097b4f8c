import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/server.ts'],
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  // The package tsconfig is composite (for tsc -b); the declaration build is a plain one.
  dts: { entry: 'src/index.ts', compilerOptions: { ignoreDeprecations: '6.0', composite: false } },
  sourcemap: true,
  clean: true,
  splitting: true,
});
