import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BrowserInterleavingSequencer } from './tests/support/browser-interleaving-sequencer.ts';
import { SummaryLineReporter } from './tests/support/summary-line-reporter.ts';

/**
 * Integration files run a second time with every test server on its own PostgreSQL database. Left out:
 * those that are about one database by design (`npm start`'s embedded PGlite, the embedded database on a full
 * disk, the storage contract and the PostgreSQL-only files, which start their own clusters) and those that test no storage (dependency floor,
 * the SDK package).
 */
const POSTGRES_INTEGRATION_FILES = [
  'integration/auth-sdk.test.ts',
  'integration/documents-sdk.test.ts',
  'integration/files-sdk.test.ts',
  'integration/ai-sdk.test.ts',
  'integration/chat-openai-compatible.test.ts',
  'integration/chat-protocol-contract.test.ts',
  'integration/chat-recovery.test.ts',
  'integration/chat-answer-takeover.test.ts',
  'integration/authorization-matrix.test.ts',
  'integration/oidc.test.ts',
  'integration/cli-auth.test.ts',
  'integration/cli-documents.test.ts',
  'integration/cli-files.test.ts',
  'integration/cli-chat.test.ts',
  'integration/examples.test.ts',
  'integration/network-faults.test.ts',
  'integration/crash-recovery.test.ts',
  'integration/live-faults.test.ts',
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
      '@planwright/sdk/live': source('./packages/sdk/src/live/index.ts'),
      '@planwright/sdk/testing': source('./packages/sdk/src/chat/testing/index.ts'),
      '@planwright/sdk': source('./packages/sdk/src/index.ts'),
      '@planwright/server': source('./packages/server/src/index.ts'),
    },
  },
  test: {
    reporters: ['default', new SummaryLineReporter()],
    // Vitest's default is one worker fewer than the cores: a single worker on a 2-core CI machine. Our files
    // spend much of their time waiting on servers, databases and child processes, so a worker per core (two
    // at least) nearly halves the run; one more than the cores was slower still (25 min against 22: imports
    // and Chromium then fight for the cores) and made timing-bound tests time out. The browser files are
    // spread among the others (the sequencer), so two Chromiums rarely compete.
    maxWorkers: Math.max(2, availableParallelism()),
    // Projects with `isolate: false` share one module graph per worker, so the server and the SDK are imported
    // once per worker rather than once per file (the server project: 61 s of imports became 11 s). None of
    // their files mocks a module; the CLI's (vi.mock) and the web's (DOM per file) stay isolated.
    sequence: { sequencer: BrowserInterleavingSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'sdk',
          root: './packages/sdk',
          include: ['test/**/*.test.ts'],
          environment: 'node',
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          root: './packages/server',
          include: ['test/**/*.test.ts'],
          isolate: false,
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
          isolate: false,
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
          isolate: false,
          root: './tests',
          include: POSTGRES_INTEGRATION_FILES,
          // The hostile-string round-trips (~4,000 sequential requests) test input validation, the same
          // on both databases; PGlite runs them, and on PostgreSQL they alone take minutes.
          testNamePattern: /^(?!.*hostile strings from the corpus)/,
          // The crash test kills our server, not PostgreSQL: its six kinds of moment once each and two more.
          env: { PLANWRIGHT_TEST_DATABASE: 'postgres', CRASH_KILLS: '8', LIVE_CRASH_KILLS: '8' },
          globalSetup: ['./support/postgres-global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 600_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          isolate: false,
          root: './tests',
          include: ['browser/**/*.test.ts'],
          globalSetup: ['./browser/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
