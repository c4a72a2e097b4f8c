/**
 * Imported first by embedded-sdk.ts, so it runs before the SDK's modules: zod (the SDK's validator) probes
 * `new Function` when its first object schema is built, at import, and a CSP without 'unsafe-eval' (as this
 * page's) reports that probe as a violation even though zod catches it. Jitless mode skips the probe; zod
 * then validates without compiled fast paths, which is plenty for a page's answers. INT-E11.
 */
import { z } from 'zod';

z.config({ jitless: true });
