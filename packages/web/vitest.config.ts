import react from '@vitejs/plugin-react';
import { defaultClientConditions } from 'vite';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  // Same resolution as the app: the SDK comes from its sources.
  resolve: { conditions: ['planwright-source', ...defaultClientConditions] },
  test: {
    name: 'web',
    environment: 'happy-dom',
    include: ['test/**/*.test.{ts,tsx}'],
    setupFiles: ['test/support/testing-library-setup.ts'],
    // Tests wait up to 10 s for a lazily loaded route's first compile (testing-library-setup.ts): the test limit must outlast
    // that wait on a loaded CI machine, where a first compile once took longer than the default 5 s.
    testTimeout: 20_000,
  },
});
