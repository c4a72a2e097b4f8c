import { z } from 'zod';

// Imported first by main.tsx, before the SDK builds its schemas: zod probes `new Function` as an object schema
// is built, and our CSP (no 'unsafe-eval') reports that probe as a violation although zod catches it.
// Jitless mode skips the probe; validation stays the same, without compiled fast paths.
z.config({ jitless: true });
