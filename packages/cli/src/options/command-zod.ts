/**
 * The zod functions command input schemas are written with: what {@link parseCommandInput} hands to a
 * {@link CommandInputSchema}. This module, not zod's namespace, is what is passed around, because a
 * namespace used as a value keeps every export of zod in the bundle (locales, JSON Schema, 760 KB to
 * compile on every run) where named imports keep only what is used (about 200 KB).
 *
 * @see ./parse-command-input.ts
 */
export { array, boolean, enum, looseObject, NEVER, number, object, record, string } from 'zod';
