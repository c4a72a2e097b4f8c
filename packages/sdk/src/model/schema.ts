import { getSchema } from '@tiptap/core';
import type { Schema } from '@tiptap/pm/model';
import { createPlanwrightExtensions } from './extensions.js';

let schema: Schema | undefined;

/**
 * The ProseMirror schema of Planwright documents, built headlessly from the same extensions as the
 * editor (no DOM needed), once, on first use.
 */
export function getPlanwrightSchema(): Schema {
  schema ??= getSchema(createPlanwrightExtensions());
  return schema;
}
