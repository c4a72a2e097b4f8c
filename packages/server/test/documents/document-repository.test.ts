import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser, type SignedInUser } from '../support/signed-in-user.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { call, createDocument } from '../support/workspace-calls.js';

let t: TestApp;
let ada: SignedInUser;
const now = () => new Date('2026-11-22T10:00:00.000Z');

beforeAll(async () => {
  t = await createTestApp({}, { now });
  ada = await createSignedInUser(t, { email: 'ada@example.com' }, now);
});
afterAll(async () => {
  await t?.close();
});

describe('compare-and-set on revision, in SQL', () => {
  it('updateAt writes only at the revision it names, and bumps it', async () => {
    const doc = await createDocument(t, ada);
    const stale = await t.storage.documents.updateAt(doc.uuid, 7, { title: 'Lost', updatedAt: now() });
    expect(stale).toBeUndefined();
    const won = await t.storage.documents.updateAt(doc.uuid, 1, { title: 'Won', updatedAt: now() });
    expect(won).toMatchObject({ title: 'Won', revision: 2 });
    expect(
      await t.storage.documents.updateAt(doc.uuid, 1, { title: 'Late', updatedAt: now() }),
    ).toBeUndefined();
    expect((await t.storage.documents.findById(doc.uuid))?.title).toBe('Won');
  });

  it('two transactions that read the same revision: the second CAS finds nothing and rolls back', async () => {
    const doc = await createDocument(t, ada);
    const outcome = await t.storage
      .transaction(async (tx) => {
        const read = await tx.documents.findById(doc.uuid);
        // Another writer commits in between (same connection on PGlite, so it goes first here).
        await tx.documents.updateAt(doc.uuid, read?.revision ?? 0, {
          title: 'Other writer',
          updatedAt: now(),
        });
        const mine = await tx.documents.updateAt(doc.uuid, read?.revision ?? 0, {
          title: 'Me',
          updatedAt: now(),
        });
        if (!mine) throw new Error('stale');
        return 'written';
      })
      .catch((error: Error) => error.message);
    expect(outcome).toBe('stale');
    // The whole transaction rolled back: not even the first write stuck.
    expect(await t.storage.documents.findById(doc.uuid)).toMatchObject({ title: doc.title, revision: 1 });
  });

  it('deleteAt deletes only at the revision it names', async () => {
    const doc = await createDocument(t, ada);
    expect(await t.storage.documents.deleteAt(doc.uuid, 2)).toBe(false);
    expect(await t.storage.documents.deleteAt(doc.uuid, 1)).toBe(true);
    expect((await call(t, 'GET', `documents/${doc.uuid}/`, { as: ada })).statusCode).toBe(404);
  });

  it('blueprints: the same compare-and-set, and the default is never deleted', async () => {
    const bp = (await call(t, 'POST', 'blueprints/', { as: ada })).json();
    expect(
      await t.storage.blueprints.updateAt(bp.uuid, 3, { title: 'Lost', updatedAt: now() }),
    ).toBeUndefined();
    expect(await t.storage.blueprints.updateAt(bp.uuid, 1, { title: 'Won', updatedAt: now() })).toMatchObject(
      { revision: 2 },
    );
    const fallback = await t.storage.blueprints.findDefault();
    expect(await t.storage.blueprints.deleteAt(fallback?.id ?? '', fallback?.revision ?? 1)).toBe(false);
    expect(await t.storage.blueprints.findDefault()).toBeDefined();
  });
});
