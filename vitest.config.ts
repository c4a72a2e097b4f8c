import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { SummaryLineReporter } from './tests/support/summary-line-reporter.ts';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  // Tests import the SDK from source, so `npm test` never depends on a stale dist/.
  resolve: {
    alias: {
      // Subpaths before the bare package: the first alias that matches wins.
      '@planwright/sdk/model': source('./packages/sdk/src/model/index.ts'),
      '@planwright/sdk/formats/node': source('./packages/sdk/src/formats/node/index.ts'),
      '@planwright/sdk/formats': source('./packages/sdk/src/formats/index.ts'),
      '@planwright/sdk/proposals': source('./packages/sdk/src/proposals/index.ts'),
      '@planwright/sdk/testing': source('./packages/sdk/src/chat/testing/index.ts'),
      '@planwright/sdk': source('./packages/sdk/src/index.ts'),
      '@planwright/server': source('./packages/server/src/index.ts'),
    },
  },
  test: {
    reporters: ['default', new SummaryLineReporter()],
    projects: [
      {
        extends: true,
        test: { name: 'sdk', root: './packages/sdk', include: ['test/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        test: {
          name: 'server',
          root: './packages/server',
          include: ['test/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'cli',
          root: './packages/cli',
          include: ['test/**/*.test.{ts,tsx}'],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      './packages/web/vitest.config.ts',
      {
        extends: true,
        test: {
          name: 'integration',
          root: './tests',
          include: ['integration/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 600_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          root: './tests',
          include: ['browser/**/*.test.ts'],
          globalSetup: ['./browser/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 600_000,
          // One Chromium at a time on a 2-core machine.
          fileParallelism: false,
        },
      },
    ],
  },
});
