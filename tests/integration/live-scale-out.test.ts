import { createPlanwrightClient, type DocumentDetail } from '@planwright/sdk';
import { LIVE_DELETED, type LiveDocument, openLiveDocument, readLiveContent } from '@planwright/sdk/live';
import type { DocumentJson } from '@planwright/sdk/model';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import * as Y from 'yjs';
import {
  blockText,
  firstSubsectionParagraph,
  settled,
  untilContent,
  withFirstSectionTitle,
} from '../support/live-replicas.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { type SdkAccount, signUpWithSdk } from '../support/sdk-accounts.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Live plans across instances (src/live/SPEC.md LR): two servers on one PostgreSQL and one Redis, a
 * person on each, through the SDK's LiveDocument as integrators use it from Node.
 */
let postgres: TestPostgres;
let redis: TestRedis;
let a: TestServer;
let b: TestServer;
let owner: SdkAccount;
const opened: LiveDocument[] = [];

let env: Record<string, string>;

beforeAll(async () => {
  [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  env = {
    DATABASE_URL: await postgres.createDatabase(),
    REDIS_URL: redis.url,
    LIVE_DOCUMENTS: 'on',
    // Long: REST reads derive what they need themselves, never by waiting.
    LIVE_DERIVE_DEBOUNCE_MS: '600000',
  };
  [a, b] = await Promise.all([startTestServer({ env }), startTestServer({ env })]);
  owner = await signUpWithSdk(a, 'live-scale@example.com');
}, 600_000);
afterEach(() => {
  for (const live of opened.splice(0)) live.destroy();
});
afterAll(async () => {
  await Promise.allSettled([a?.close(), b?.close()]);
  await Promise.allSettled([redis?.stop(), postgres?.stop()]);
});

async function newPlan(): Promise<DocumentDetail> {
  const blueprints = await owner.client.blueprints.available();
  const blueprint = blueprints.items.find((item) => item.title === 'Business Plan');
  if (!blueprint) throw new Error('no Business Plan blueprint');
  return owner.client.documents.create({ blueprint: blueprint.uuid, title: 'Shared live plan' });
}

function open(server: TestServer, documentId: string, name: string, document?: Y.Doc): LiveDocument {
  const live = openLiveDocument({
    baseUrl: server.url,
    documentId,
    token: owner.tokenStore.getToken,
    user: { name, color: '#336699' },
    WebSocket,
    ...(document ? { document } : {}),
  });
  opened.push(live);
  return live;
}

/** Types `text` at the end of the first subsection paragraph of a replica, one character per change. */
function typeAtEnd(ydoc: Y.Doc, text: string): void {
  const target = firstSubsectionParagraph(readLiveContent(ydoc).document);
  const paragraph = [...ydoc.getXmlFragment('content').createTreeWalker(() => true)].find(
    (node) => node instanceof Y.XmlElement && node.getAttribute('nodeId') === target.attrs.nodeId,
  );
  if (!(paragraph instanceof Y.XmlElement)) throw new Error('paragraph not found in the replica');
  if (!(paragraph.get(0) instanceof Y.XmlText)) paragraph.insert(0, [new Y.XmlText('')]);
  const node = paragraph.get(0) as Y.XmlText;
  for (const character of text) node.insert(node.length, character);
}

const tokens = (who: string, count: number) => Array.from({ length: count }, (_, i) => `<${who}${i}>`);
const hasAll = (text: string, expected: readonly string[]) => expected.every((token) => text.includes(token));

describe('live plans across instances through Redis (LR)', () => {
  it('LR1 LR2 LR4 two people on two instances co-edit one paragraph; every character is kept and stored', async () => {
    const plan = await newPlan();
    const ada = open(a, plan.uuid, 'Ada');
    const bob = open(b, plan.uuid, 'Bob');
    await Promise.all([settled(ada, (s) => s.synced), settled(bob, (s) => s.synced)]);
    // LR1: presence crosses too.
    expect((await settled(ada, (s) => s.peers.length === 1)).peers[0]?.name).toBe('Bob');
    const adaTyped = tokens('a', 30);
    const bobTyped = tokens('b', 30);
    for (let i = 0; i < 30; i += 1) {
      typeAtEnd(ada.document, adaTyped[i] as string);
      typeAtEnd(bob.document, bobTyped[i] as string);
    }
    const all = [...adaTyped, ...bobTyped];
    const [onA, onB] = await Promise.all([
      untilContent(ada.document, (d) => hasAll(blockText(firstSubsectionParagraph(d)), all)),
      untilContent(bob.document, (d) => hasAll(blockText(firstSubsectionParagraph(d)), all)),
    ]);
    expect(blockText(firstSubsectionParagraph(onA))).toBe(blockText(firstSubsectionParagraph(onB)));
    await Promise.all([ada.whenSaved(), bob.whenSaved()]);
    // The derived content (read on either instance) has every character.
    for (const server of [a, b]) {
      const response = await fetch(`${server.url}/api/v1/documents/${plan.uuid}/`, {
        headers: { 'x-session-token': owner.tokenStore.getToken() as string },
      });
      const read = (await response.json()) as { content: DocumentJson };
      expect(blockText(firstSubsectionParagraph(read.content))).toBe(
        blockText(firstSubsectionParagraph(onA)),
      );
    }
  });

  it('LR3 LR5 a REST PATCH on instance A reaches the person on instance B as a change; their typing stays', async () => {
    const plan = await newPlan();
    const ada = open(a, plan.uuid, 'Ada');
    const bob = open(b, plan.uuid, 'Bob');
    await Promise.all([settled(ada, (s) => s.synced), settled(bob, (s) => s.synced)]);
    typeAtEnd(bob.document, ' Typed on B.');
    await bob.whenSaved();
    const read = await owner.client.documents.get(plan.uuid);
    expect(blockText(firstSubsectionParagraph(read.content as DocumentJson))).toContain(' Typed on B.');
    const content = withFirstSectionTitle(read.content as DocumentJson, 'Renamed on A');
    await owner.client.documents.update(plan.uuid, { content }, { ifMatch: read.revision ?? undefined });
    const merged = await untilContent(
      bob.document,
      (document) => blockText(document.content[0]?.content[0] ?? {}) === 'Renamed on A',
    );
    expect(blockText(firstSubsectionParagraph(merged))).toContain(' Typed on B.');
  });

  it('LR3 a REST read on an instance whose Redis lags behind still sees what another instance stored: it merges the log first', async () => {
    // Instance C shares the database but not the Redis: its copy of the plan never hears B's typing.
    const lagging = await startRedis();
    const c = await startTestServer({ env: { ...env, REDIS_URL: lagging.url } });
    try {
      const plan = await newPlan();
      const carl = open(c, plan.uuid, 'Carl');
      const bob = open(b, plan.uuid, 'Bob');
      await Promise.all([settled(carl, (s) => s.synced), settled(bob, (s) => s.synced)]);
      typeAtEnd(bob.document, ' Stored on B.');
      await bob.whenSaved();
      const onC = createPlanwrightClient({ baseUrl: c.url, tokenStore: owner.tokenStore });
      const read = await onC.documents.get(plan.uuid);
      expect(blockText(firstSubsectionParagraph(read.content as DocumentJson))).toContain(' Stored on B.');
      // Carl, editing on C, gets it too, from the merge.
      await untilContent(carl.document, (document) =>
        blockText(firstSubsectionParagraph(document)).includes(' Stored on B.'),
      );
    } finally {
      for (const live of opened.splice(0)) live.destroy();
      await c.close();
      await lagging.stop();
    }
  });

  it("LB3 unpublishing on instance A ends the live view of a reader on instance B; deleting ends the owner's there", async () => {
    const reader = await signUpWithSdk(a, 'live-scale-reader@example.com');
    const blueprint = await owner.client.blueprints.create({ title: 'Shared across instances' });
    await owner.client.blueprints.publish(blueprint.uuid, { visibility: 'public' });
    const follow = (server: TestServer, token: () => string | null) => {
      const live = openLiveDocument({
        baseUrl: server.url,
        documentId: blueprint.uuid,
        kind: 'blueprint',
        token,
        WebSocket,
      });
      opened.push(live);
      return live;
    };
    const following = follow(b, reader.tokenStore.getToken);
    const editing = follow(b, owner.tokenStore.getToken);
    expect((await settled(following, (s) => s.synced)).readOnly).toBe(true);
    expect((await settled(editing, (s) => s.synced)).readOnly).toBe(false);
    // The REST call goes to A; the database tells B, which closes the reader there (who is then refused).
    await owner.client.blueprints.unpublish(blueprint.uuid);
    expect((await settled(following, (s) => s.error !== null)).error?.code).toBe('refused');
    await owner.client.blueprints.delete(blueprint.uuid);
    expect((await settled(editing, (s) => s.error !== null)).error).toEqual({
      code: 'refused',
      message: LIVE_DELETED,
    });
  });

  it('PM5 a member removed on instance A is closed out of the plan on instance B at once (docs/teams.md)', async () => {
    const plan = await owner.client.documents.create({ title: 'Team plan across instances' });
    const member = await signUpWithSdk(a, 'live-scale-member@example.com');
    const sent = await owner.client.members.invite(plan.uuid, { email: member.email, role: 'editor' });
    await member.client.invitations.accept(sent.id);
    const live = openLiveDocument({
      baseUrl: b.url,
      documentId: plan.uuid,
      token: member.tokenStore.getToken,
      WebSocket,
    });
    opened.push(live);
    expect((await settled(live, (s) => s.synced)).readOnly).toBe(false);
    await owner.client.members.remove(plan.uuid, String((await member.client.auth.me()).id));
    expect((await settled(live, (s) => s.error !== null)).error?.code).toBe('refused');
  });
});
