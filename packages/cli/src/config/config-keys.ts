/**
 * The settings a user can change with `planwright config set`, with the line `config --help` shows
 * for each. Adding a setting starts here; config-schema.ts then must give it a schema (the compiler
 * checks). This module stays free of zod because `--help` reads it.
 */
export const configKeyDescriptions = {
  server: 'URL of the Planwright server (PLANWRIGHT_SERVER and --server win over it)',
} as const;

export type ConfigKey = keyof typeof configKeyDescriptions;

export const configKeys = Object.keys(configKeyDescriptions) as [ConfigKey, ...ConfigKey[]];
