import { createPlanwrightClient, MemoryTokenStore } from '@planwright/sdk';
import { type LiveDocument, openLiveDocument } from '@planwright/sdk/live';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { settled } from '../support/live-replicas.js';
import { apiErrorOf, signUpWithSdk, TEST_PASSWORD } from '../support/sdk-accounts.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The account's security through the SDK against the real server (docs/auth.md "Sessions, password and tokens"):
 * ending a session closes its live plan at once; a personal access token opens plans (read-only ones read-only),
 * and revoking it closes them.
 */

let server: TestServer;
const opened: LiveDocument[] = [];

beforeAll(async () => {
  server = await startTestServer();
});
afterEach(() => {
  for (const live of opened.splice(0)) live.destroy();
});
afterAll(async () => {
  await server?.close();
});

function open(documentId: string, token: () => string | null): LiveDocument {
  const live = openLiveDocument({ baseUrl: server.url, documentId, token, WebSocket });
  opened.push(live);
  return live;
}

describe('account security through the SDK', () => {
  it('ASS1 ending another session from the list closes its live plan at once; this one stays', async () => {
    const owner = await signUpWithSdk(server, 'ass1@example.com');
    const plan = await owner.client.documents.create({ title: 'Two devices' });
    const phoneStore = new MemoryTokenStore();
    const phone = createPlanwrightClient({ baseUrl: server.url, tokenStore: phoneStore });
    expect((await phone.auth.login({ email: owner.email, password: TEST_PASSWORD })).kind).toBe(
      'authenticated',
    );
    const onPhone = open(plan.uuid, phoneStore.getToken);
    const onLaptop = open(plan.uuid, owner.tokenStore.getToken);
    await settled(onPhone, (s) => s.synced);
    await settled(onLaptop, (s) => s.synced);

    const listed = await owner.client.auth.sessions();
    if (listed.kind !== 'sessions') throw new Error(listed.kind);
    const other = listed.sessions.find((session) => !session.is_current);
    const ended = await owner.client.auth.endSessions([other?.id ?? 0]);
    expect(ended.kind).toBe('sessions');
    expect((await settled(onPhone, (s) => s.error !== null)).error?.code).toBe('signed_out');
    expect(onLaptop.getSnapshot().error).toBeNull();
    expect((await phone.auth.session()).kind).toBe('session_gone');
  });

  it('ASS2 a personal access token opens plans (a read-only one read-only) and stops at once when revoked', async () => {
    const owner = await signUpWithSdk(server, 'ass2@example.com');
    const plan = await owner.client.documents.create({ title: 'Scripted' });
    const made = await owner.client.auth.createToken({ name: 'nightly', scope: 'write' });
    const readOnly = await owner.client.auth.createToken({ name: 'reader', scope: 'read' });
    if (made.kind !== 'token_created' || readOnly.kind !== 'token_created') throw new Error('no token');
    const script = createPlanwrightClient({
      baseUrl: server.url,
      tokenStore: new MemoryTokenStore({ token: made.token }),
    });
    const reader = createPlanwrightClient({
      baseUrl: server.url,
      tokenStore: new MemoryTokenStore({ token: readOnly.token }),
    });
    expect((await script.documents.get(plan.uuid)).title).toBe('Scripted');
    await script.documents.update(plan.uuid, { title: 'Renamed by the script' });
    expect((await reader.documents.get(plan.uuid)).title).toBe('Renamed by the script');
    const refused = await apiErrorOf(reader.documents.update(plan.uuid, { title: 'Not by a reader' }), 404);
    expect(refused.detail).toContain('read-only');

    const writing = open(plan.uuid, () => made.token);
    const reading = open(plan.uuid, () => readOnly.token);
    await settled(writing, (s) => s.synced);
    expect((await settled(reading, (s) => s.synced)).readOnly).toBe(true);
    expect(writing.getSnapshot().readOnly).toBe(false);

    const listed = await owner.client.auth.tokens();
    if (listed.kind !== 'tokens') throw new Error(listed.kind);
    expect(listed.tokens.map((token) => token.name)).toEqual(['reader', 'nightly']);
    expect((await owner.client.auth.revokeToken(made.personalToken.id)).kind).toBe('ok');
    expect((await settled(writing, (s) => s.error !== null)).error?.code).toBe('signed_out');
    expect(reading.getSnapshot().error).toBeNull();
  });
});
