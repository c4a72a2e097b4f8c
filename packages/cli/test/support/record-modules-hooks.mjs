// Module customization hooks for record-modules.mjs (they run on Node's loader thread).
import { appendFileSync } from 'node:fs';

let out;

export function initialize(data) {
  out = data.out;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(out, `${resolved.url}\n`);
  return resolved;
}
