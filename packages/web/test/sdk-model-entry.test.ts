import { outlineOf as outlineFromMain } from '@planwright/sdk';
import { type DocumentJson, getPlanwrightSchema, normalizeDocument, outlineOf } from '@planwright/sdk/model';
import { describe, expect, it } from 'vitest';

// The web app resolves the SDK's model subpath under Bundler resolution with the `source` condition, types and all.
describe('@planwright/sdk/model from the web app', () => {
  it('normalises a tree and loads it in the schema', () => {
    const result = normalizeDocument({ type: 'doc', content: [{ type: 'paragraph' }] });
    expect(result.ok).toBe(true);
    const doc: DocumentJson | undefined = result.ok ? result.doc : undefined;
    expect(() => getPlanwrightSchema().nodeFromJSON(doc).check()).not.toThrow();
    expect(outlineOf(doc)).toEqual(outlineFromMain(doc));
  });
});
