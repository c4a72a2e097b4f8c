import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser, type SignedInUser } from '../support/signed-in-user.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { call, createDocument } from '../support/workspace-calls.js';
import { paragraphBomb } from './hostile-docx.js';
import { multipartBody } from './multipart.js';

let t: TestApp;
let ada: SignedInUser;

// Small heap budgets (96 MB, at most 128) make "out of memory" cheap to reach with a 38 KB file.
beforeAll(async () => {
  t = await createTestApp({ CONVERSION_MEMORY_MB: '96', CONVERSION_MAX_MEMORY_MB: '128' });
  ada = await createSignedInUser(t, { email: 'ada@example.com', firstName: 'Ada' });
});
afterAll(async () => {
  await t?.close();
});

async function importFile(uuid: string, name: string, bytes: Uint8Array | string) {
  const body = await multipartBody({ file: { name, bytes }, mode: 'replace' });
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/documents/${uuid}/import/`,
    headers: { ...ada.headers, ...body.headers },
    payload: body.payload,
  });
}

describe('import memory budget', () => {
  it('a file that needs more heap than its budget → 422 out_of_memory naming the limit; nothing saved, the next import works', async () => {
    const doc = await createDocument(t, ada);
    const bomb = paragraphBomb();
    const refused = await importFile(doc.uuid, 'bomb.docx', bomb);
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json()).toEqual({
      code: 'out_of_memory',
      detail:
        'The conversion needed more than 128 MB of memory (the limit for a 38 KB file: 96 MB plus 1024 MB per MB, at most 128 MB) and was stopped.',
    });
    const read = await call(t, 'GET', `documents/${doc.uuid}/`, { as: ada });
    expect(read.json().revision).toBe(doc.revision);

    const next = await importFile(doc.uuid, 'plan.md', '# Market\n\nStill works.');
    expect(next.statusCode, next.body).toBe(200);
    expect(JSON.stringify(next.json().content)).toContain('Still works.');
  });
});
