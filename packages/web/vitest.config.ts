import react from '@vitejs/plugin-react';
import { defaultClientConditions } from 'vite';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  // Same resolution as the app: the SDK comes from its sources.
  resolve: { conditions: ['planwright-source', ...defaultClientConditions] },
  test: { name: 'web', environment: 'happy-dom', include: ['test/**/*.test.{ts,tsx}'] },
});
