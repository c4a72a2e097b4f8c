import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { SummaryLineReporter } from './tests/support/summary-line-reporter.ts';

/**
 * Integration files run a second time with every test server on its own PostgreSQL database. Left out:
 * those that are about one database by design (`npm start`'s embedded PGlite, the storage contract and the
 * PostgreSQL-only files, which start their own clusters) and those that test no storage (dependency floor,
 * the SDK package).
 */
const POSTGRES_INTEGRATION_FILES = [
  'integration/auth-sdk.test.ts',
  'integration/documents-sdk.test.ts',
  'integration/files-sdk.test.ts',
  'integration/ai-sdk.test.ts',
  'integration/chat-openai-compatible.test.ts',
  'integration/authorization-matrix.test.ts',
  'integration/oidc.test.ts',
  'integration/cli-auth.test.ts',
  'integration/cli-documents.test.ts',
  'integration/cli-files.test.ts',
  'integration/cli-chat.test.ts',
  'integration/examples.test.ts',
];

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
          // The integration files that touch storage again, on a real PostgreSQL (docs/deployment.md).
          name: 'integration-postgres',
          root: './tests',
          include: POSTGRES_INTEGRATION_FILES,
          // The hostile-string round-trips (~4,000 sequential requests) test input validation, the same
          // on both databases; PGlite runs them, and on PostgreSQL they alone take minutes.
          testNamePattern: /^(?!.*hostile strings from the corpus)/,
          env: { PLANWRIGHT_TEST_DATABASE: 'postgres' },
          globalSetup: ['./support/postgres-global-setup.ts'],
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
