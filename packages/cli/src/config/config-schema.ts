import * as z from 'zod';
import * as commandZod from '../options/command-zod.js';
import type { ConfigKey } from './config-keys.js';
import { serverUrlSchema } from './server-url.js';

/** The schema of each setting's value: `config set` and every read of the file use the same one. */
export const configValueSchemas = {
  server: serverUrlSchema(commandZod),
} satisfies Record<ConfigKey, z.ZodType>;

/**
 * The config file. Loose on purpose: keys written by a newer planwright survive a round trip
 * through an older one (they are kept, not validated, and not shown by `config list`).
 */
export const configFileSchema = z.looseObject({
  server: configValueSchemas.server.optional(),
});

export type ConfigFile = z.output<typeof configFileSchema>;
