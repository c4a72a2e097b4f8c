import { defineConfig } from 'drizzle-kit';

// `npm run db:generate -w @planwright/server` writes a new forward-only migration into ./drizzle.
export default defineConfig({ dialect: 'postgresql', schema: './src/db/schema.ts', out: './drizzle' });
