import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { type DocumentDetail, RevisionConflictError } from '@planwright/sdk';
import {
  LIVE_BUSY,
  LIVE_DELETED,
  LIVE_REFUSED,
  type LiveDocument,
  openLiveDocument,
  readLiveContent,
} from '@planwright/sdk/live';
import type { DocumentJson, ParagraphJson } from '@planwright/sdk/model';
import { openStorage } from '@planwright/server';
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
import { type SdkAccount, signUpWithSdk } from '../support/sdk-accounts.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Live plans on the real server (src/live/SPEC.md LV): the Yjs sync socket at /ws/collab/ with
 * Hocuspocus's own provider, as the web editor and integrators use it, against the REST API.
 */

let server: TestServer;
let counter = 0;
const providers: HocuspocusProvider[] = [];
const opened: LiveDocument[] = [];

beforeAll(async () => {
  // A long debounce: the tests show that REST reads derive the content themselves, never by waiting.
  server = await startTestServer({ env: { LIVE_DOCUMENTS: 'on', LIVE_DERIVE_DEBOUNCE_MS: '600000' } });
});
afterEach(() => {
  for (const live of opened.splice(0)) live.destroy();
  for (const provider of providers.splice(0)) {
    provider.destroy();
    provider.configuration.websocketProvider.destroy();
  }
});
afterAll(async () => {
  await server?.close();
});

async function account(): Promise<SdkAccount> {
  return signUpWithSdk(server, `live-${++counter}@example.com`);
}

async function newPlan(owner: SdkAccount): Promise<DocumentDetail> {
  // The seeded "Business Plan": sections and subsections with a paragraph each.
  const blueprints = await owner.client.blueprints.available();
  const blueprint = blueprints.items.find((item) => item.title === 'Business Plan');
  if (!blueprint) throw new Error('no Business Plan blueprint');
  return owner.client.documents.create({ blueprint: blueprint.uuid, title: 'Live plan' });
}

/**
 * A provider for the plan `documentId` (a document, or a blueprint with `kind`) as `token` (null: no token at
 * all), resolved once it is synced or refused.
 */
function connect(
  documentId: string,
  token: string | null,
  kind: 'document' | 'blueprint' = 'document',
): Promise<{ provider: HocuspocusProvider; ydoc: Y.Doc; refused?: string }> {
  const ydoc = new Y.Doc();
  const websocketProvider = new HocuspocusProviderWebsocket({
    url: `${server.url.replace('http', 'ws')}/ws/collab/`,
    WebSocketPolyfill: WebSocket,
  });
  return new Promise((resolve) => {
    const provider = new HocuspocusProvider({
      websocketProvider,
      name: `${kind}/${documentId}`,
      document: ydoc,
      token,
      onSynced: () => resolve({ provider, ydoc }),
      onAuthenticationFailed: ({ reason }) => resolve({ provider, ydoc, refused: reason }),
    });
    provider.attach();
    providers.push(provider);
  });
}

/** Resolves when the server has every change `provider` sent (Hocuspocus acknowledges each update). */
function acknowledged(provider: HocuspocusProvider): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (!provider.hasUnsyncedChanges) {
        provider.off('unsyncedChanges', check);
        resolve();
      }
    };
    provider.on('unsyncedChanges', check);
    check();
  });
}

/** Types `text` at the start of the first subsection paragraph of a replica, as an editor would. */
function typeInto(ydoc: Y.Doc, text: string): void {
  const target = firstSubsectionParagraph(readLiveContent(ydoc).document);
  const paragraph = [...ydoc.getXmlFragment('content').createTreeWalker(() => true)].find(
    (node) => node instanceof Y.XmlElement && node.getAttribute('nodeId') === target.attrs.nodeId,
  );
  if (!(paragraph instanceof Y.XmlElement)) throw new Error('paragraph not found in the replica');
  const existing = paragraph.get(0);
  if (existing instanceof Y.XmlText) existing.insert(0, text);
  else paragraph.insert(0, [new Y.XmlText(text)]);
}

describe('live plans over /ws/collab/ (LV)', () => {
  it('LV1 the first connection gets the stored plan; two people converge, and a REST read sees both', async () => {
    const owner = await account();
    const plan = await newPlan(owner);
    const token = owner.tokenStore.getToken();
    const a = await connect(plan.uuid, token);
    const b = await connect(plan.uuid, token);
    expect(a.refused).toBeUndefined();
    expect(readLiveContent(a.ydoc).document).toEqual(plan.content);
    typeInto(a.ydoc, 'Ada typed this. ');
    typeInto(b.ydoc, 'Bob typed that. ');
    await Promise.all([acknowledged(a.provider), acknowledged(b.provider)]);
    const both = (text: string) => text.includes('Ada typed this. ') && text.includes('Bob typed that. ');
    await untilContent(a.ydoc, (document) => both(blockText(firstSubsectionParagraph(document))));
    await untilContent(b.ydoc, (document) => both(blockText(firstSubsectionParagraph(document))));
    // No waiting for the debounce: the read derives the content first.
    const read = await owner.client.documents.get(plan.uuid);
    expect(both(blockText(firstSubsectionParagraph(read.content as DocumentJson)))).toBe(true);
    expect(read.revision).toBeGreaterThan(plan.revision ?? 0);
    // The AI reads the plan as people have it now, too.
    typeInto(a.ydoc, 'Said to the AI. ');
    await acknowledged(a.provider);
    const section = (read.content as DocumentJson).content.find((part) =>
      part.content.some((child) => child.type === 'subsection'),
    );
    const subsection = section?.content.find((child) => child.type === 'subsection');
    const context = await owner.client.ai.context(plan.uuid, {
      sectionUuid: section?.attrs.uuid,
      subsectionUuid: subsection?.type === 'subsection' ? subsection.attrs.uuid : undefined,
    });
    expect(context.system).toContain('Said to the AI. ');
  });

  it('LV2 a REST PATCH with If-Match reaches people with the plan open as a change; what they typed stays', async () => {
    const owner = await account();
    const plan = await newPlan(owner);
    const live = await connect(plan.uuid, owner.tokenStore.getToken());
    const typed = 'Typed before the script read. ';
    typeInto(live.ydoc, typed);
    await acknowledged(live.provider);
    // The script reads (the read derives what was typed), renames the first section and writes back.
    const read = await owner.client.documents.get(plan.uuid);
    expect(blockText(firstSubsectionParagraph(read.content as DocumentJson))).toContain(typed);
    const content = withFirstSectionTitle(read.content as DocumentJson, 'Renamed over REST');
    await owner.client.documents.update(plan.uuid, { content }, { ifMatch: read.revision ?? undefined });
    const merged = await untilContent(
      live.ydoc,
      (document) => blockText(document.content[0]?.content[0] ?? {}) === 'Renamed over REST',
    );
    expect(blockText(firstSubsectionParagraph(merged))).toContain(typed);
    const after = await owner.client.documents.get(plan.uuid);
    expect(blockText((after.content as DocumentJson).content[0]?.content[0] ?? {})).toBe('Renamed over REST');
    expect(blockText(firstSubsectionParagraph(after.content as DocumentJson))).toContain(typed);
  });

  it('LV2 typing after a script read makes its If-Match write a 412, and nothing is overwritten', async () => {
    const owner = await account();
    const plan = await newPlan(owner);
    const live = await connect(plan.uuid, owner.tokenStore.getToken());
    const read = await owner.client.documents.get(plan.uuid);
    const typed = 'Typed after the script read. ';
    typeInto(live.ydoc, typed);
    await acknowledged(live.provider);
    const content = withFirstSectionTitle(read.content as DocumentJson, 'Stale rename');
    const refused = await owner.client.documents
      .update(plan.uuid, { content }, { ifMatch: read.revision ?? undefined })
      .catch((error: unknown) => error);
    expect(RevisionConflictError.isInstance(refused)).toBe(true);
    const after = await owner.client.documents.get(plan.uuid);
    expect(blockText((after.content as DocumentJson).content[0]?.content[0] ?? {})).not.toBe('Stale rename');
    expect(blockText(firstSubsectionParagraph(after.content as DocumentJson))).toContain(typed);
    expect(blockText(firstSubsectionParagraph(readLiveContent(live.ydoc).document))).toContain(typed);
  });

  it('LV2 a large PATCH (parsed and normalised off the event loop) reaches the live document too', async () => {
    const owner = await account();
    const plan = await newPlan(owner);
    const live = await connect(plan.uuid, owner.tokenStore.getToken());
    const read = await owner.client.documents.get(plan.uuid);
    const content = structuredClone(read.content as DocumentJson);
    // Some 400 KB of text in the first section: past the 256 KiB a save is parsed in a worker from.
    const filler = 'A long paragraph of the plan, written to make the body large. '.repeat(40);
    const section = content.content[0];
    if (!section) throw new Error('no section');
    section.content.splice(
      1,
      0,
      ...Array.from(
        { length: 160 },
        (_, i): ParagraphJson => ({
          type: 'paragraph',
          attrs: { indent: 0, nodeId: `filler-${i}` },
          content: [{ type: 'text', text: filler }],
        }),
      ),
    );
    expect(JSON.stringify(content).length).toBeGreaterThan(300 * 1024);
    await owner.client.documents.update(plan.uuid, { content }, { ifMatch: read.revision ?? undefined });
    const arrived = await untilContent(
      live.ydoc,
      (document) => (document.content[0]?.content.length ?? 0) > 100,
    );
    expect(blockText(arrived.content[0]?.content[1] ?? {})).toBe(filler);
  });

  it('LV3 a stranger, a missing plan, a bad token and no token are all refused, and learn nothing', async () => {
    const owner = await account();
    const stranger = await account();
    const plan = await newPlan(owner);
    const refusals = await Promise.all([
      connect(plan.uuid, stranger.tokenStore.getToken()),
      connect('00000000-0000-4000-8000-000000000000', stranger.tokenStore.getToken()),
      connect(plan.uuid, 'not-a-session-token'),
      connect(plan.uuid, null),
      connect('not-a-uuid', owner.tokenStore.getToken()),
    ]);
    for (const refusal of refusals) {
      expect(refusal.refused).toBeDefined();
      expect(refusal.ydoc.getXmlFragment('content').length).toBe(0);
    }
    // A stranger's plan and a missing one are refused alike.
    expect(refusals[0]?.refused).toBe(refusals[1]?.refused);
  });

  it('LV3 a token in the socket URL (4400) and a foreign Origin (4403) close it before anything is read', async () => {
    const owner = await account();
    const url = `${server.url.replace('http', 'ws')}/ws/collab/`;
    const closeOf = (address: string, headers: Record<string, string> = {}) =>
      new Promise<number>((resolve) => {
        const socket = new WebSocket(address, { headers });
        socket.on('close', (code) => resolve(code));
        socket.on('error', () => {});
      });
    expect(await closeOf(`${url}?token=${owner.tokenStore.getToken()}`)).toBe(4400);
    expect(await closeOf(url, { origin: 'https://evil.example' })).toBe(4403);
    const plain = await fetch(`${server.url}/ws/collab/`);
    expect(plain.status).toBe(426);
  });

  it('LV4 changes survive a restart: the log is durable before the content is derived', async () => {
    const owner = await account();
    const plan = await newPlan(owner);
    const live = await connect(plan.uuid, owner.tokenStore.getToken());
    typeInto(live.ydoc, 'Kept across a restart. ');
    await acknowledged(live.provider);
    const before = readLiveContent(live.ydoc).document;
    live.provider.destroy();
    await server.stop();
    await server.restart();
    const again = await connect(plan.uuid, owner.tokenStore.getToken());
    expect(readLiveContent(again.ydoc).document).toEqual(before);
    expect(
      blockText(
        firstSubsectionParagraph((await owner.client.documents.get(plan.uuid)).content as DocumentJson),
      ),
    ).toContain('Kept across a restart. ');
  });

  it('LV4 a server stopped with people connected stores the derived content before its database closes', async () => {
    const owner = await account();
    const plan = await newPlan(owner);
    const live = await connect(plan.uuid, owner.tokenStore.getToken());
    typeInto(live.ydoc, 'Derived on the way down. ');
    await acknowledged(live.provider);
    // Still connected, and the derive debounce (10 min here) far off: only the stop derives it.
    await server.stop();
    live.provider.destroy();
    const storage = await openStorage(server.database);
    try {
      const stored = await storage.documents.findById(plan.uuid);
      expect(blockText(firstSubsectionParagraph(stored?.content as DocumentJson))).toContain(
        'Derived on the way down. ',
      );
    } finally {
      await storage.close();
      await server.restart();
    }
  });

  it('LV8 the documents list shows a plan being edited live as it is now, not as of the last derive', async () => {
    const owner = await account();
    const plan = await newPlan(owner);
    const listed = async () =>
      (await owner.client.documents.list()).items.find((item) => item.uuid === plan.uuid);
    const before = await listed();
    const live = await connect(plan.uuid, owner.tokenStore.getToken());
    // Finalized in the editor (its attribute on the live copy), with the derive debounce 10 min away.
    const subsection = [...live.ydoc.getXmlFragment('content').createTreeWalker(() => true)].find(
      (node) => node instanceof Y.XmlElement && node.nodeName === 'subsection',
    );
    if (!(subsection instanceof Y.XmlElement)) throw new Error('no subsection in the live copy');
    // y-tiptap keeps attributes as their JSON values: `finalized` is a boolean.
    (subsection as Y.XmlElement<{ finalized: boolean }>).setAttribute('finalized', true);
    await acknowledged(live.provider);
    const after = await listed();
    expect(after?.progress.finalized).toBe((before?.progress.finalized ?? 0) + 1);
    expect(after?.revision).toBeGreaterThan(before?.revision ?? 0);
  });

  it('LV5 a plan edited over REST while nobody had it open loads with that edit', async () => {
    const owner = await account();
    const plan = await newPlan(owner);
    const first = await connect(plan.uuid, owner.tokenStore.getToken());
    typeInto(first.ydoc, 'Live first. ');
    await acknowledged(first.provider);
    first.provider.destroy();
    const stored = await owner.client.documents.get(plan.uuid);
    const content = withFirstSectionTitle(stored.content as DocumentJson, 'Edited offline');
    await owner.client.documents.update(plan.uuid, { content }, { ifMatch: stored.revision ?? undefined });
    const second = await connect(plan.uuid, owner.tokenStore.getToken());
    const loaded = readLiveContent(second.ydoc).document;
    expect(blockText(loaded.content[0]?.content[0] ?? {})).toBe('Edited offline');
    expect(blockText(firstSubsectionParagraph(loaded))).toContain('Live first. ');
  });

  it("LV6 the SDK's LiveDocument: saved only once the server stored it, peers by name, refusals and sign-out", async () => {
    const owner = await account();
    const plan = await newPlan(owner);
    const open = (name: string, token: () => string | null) => {
      const live = openLiveDocument({
        baseUrl: server.url,
        documentId: plan.uuid,
        token,
        user: { name, color: '#336699' },
        WebSocket,
      });
      opened.push(live);
      return live;
    };
    const ada = open('Ada', owner.tokenStore.getToken);
    const bob = open('Bob', owner.tokenStore.getToken);
    // Synced, and the first exchange acknowledged: nothing of Ada's is waiting.
    await Promise.all([settled(ada, (s) => s.synced && s.saved), settled(bob, (s) => s.synced && s.saved)]);
    expect(ada.getSnapshot()).toMatchObject({ status: 'connected', saved: true, error: null });
    const peers = await settled(ada, (s) => s.peers.length === 1);
    expect(peers.peers[0]?.name).toBe('Bob');
    typeInto(ada.document, 'Stored before saved. ');
    expect(ada.getSnapshot().saved).toBe(false);
    await ada.whenSaved();
    expect(ada.getSnapshot().saved).toBe(true);
    // Saved means stored: a fresh replica loading from the server's log has it.
    const fresh = await connect(plan.uuid, owner.tokenStore.getToken());
    expect(blockText(firstSubsectionParagraph(readLiveContent(fresh.ydoc).document))).toContain(
      'Stored before saved. ',
    );

    const stranger = await account();
    const refused = open('Eve', stranger.tokenStore.getToken);
    expect((await settled(refused, (s) => s.error !== null)).error).toEqual({
      code: 'refused',
      message: LIVE_REFUSED,
    });

    await owner.client.auth.logout();
    const ended = await settled(bob, (s) => s.error !== null);
    expect(ended.error?.code).toBe('signed_out');
  });
});

describe('live blueprints (LB, issue 21 item 7)', () => {
  /** The owner's new blueprint: one section holding one subsection with an empty paragraph. */
  const newBlueprint = (owner: SdkAccount) => owner.client.blueprints.create({ title: 'Studio template' });

  it('LB1 the owner co-edits a blueprint live; REST reads, PATCH, section calls and new documents meet the typing', async () => {
    const owner = await account();
    const blueprint = await newBlueprint(owner);
    const token = owner.tokenStore.getToken();
    const a = await connect(blueprint.uuid, token, 'blueprint');
    const b = await connect(blueprint.uuid, token, 'blueprint');
    expect(a.refused).toBeUndefined();
    expect(a.provider.authorizedScope).toBe('read-write');
    expect(readLiveContent(a.ydoc).document).toEqual(blueprint.content);
    typeInto(a.ydoc, 'Instructions by Ada. ');
    typeInto(b.ydoc, 'Hints by Bob. ');
    await Promise.all([acknowledged(a.provider), acknowledged(b.provider)]);
    const both = (text: string) => text.includes('Instructions by Ada. ') && text.includes('Hints by Bob. ');
    await untilContent(a.ydoc, (document) => both(blockText(firstSubsectionParagraph(document))));
    // A read derives first: no waiting for the (here ten-minute) debounce.
    const read = await owner.client.blueprints.get(blueprint.uuid);
    expect(both(blockText(firstSubsectionParagraph(read.content as DocumentJson)))).toBe(true);

    // A script reads (the read derives what was typed), renames with If-Match and writes back: the
    // open editors get the rename as a change, and what they typed stays.
    typeInto(b.ydoc, 'Typed before the script read. ');
    await acknowledged(b.provider);
    const before = await owner.client.blueprints.get(blueprint.uuid);
    const renamed = withFirstSectionTitle(before.content as DocumentJson, 'Market, renamed by a script');
    await owner.client.blueprints.update(
      blueprint.uuid,
      { content: renamed },
      { ifMatch: before.revision ?? undefined },
    );
    const merged = await untilContent(
      a.ydoc,
      (document) => blockText(document.content[0]?.content[0] ?? {}) === 'Market, renamed by a script',
    );
    expect(blockText(firstSubsectionParagraph(merged))).toContain('Typed before the script read. ');

    // A section call from the sidebar reaches the open editors as a change too.
    const section = (read.content as DocumentJson).content[0];
    if (!section) throw new Error('no section');
    await owner.client.blueprints.sections.update(blueprint.uuid, section.attrs.uuid, {
      title: 'Go to market',
    });
    await untilContent(
      b.ydoc,
      (document) => blockText(document.content[0]?.content[0] ?? {}) === 'Go to market',
    );

    // A document made from the blueprint now copies it as typed.
    typeInto(a.ydoc, 'Last words. ');
    await acknowledged(a.provider);
    const made = await owner.client.documents.create({ blueprint: blueprint.uuid, title: 'From live' });
    expect(blockText(firstSubsectionParagraph(made.content as DocumentJson))).toContain('Last words. ');
  });

  it('LB2 a reader of a published blueprint follows it read-only: their changes are refused and they are told', async () => {
    const owner = await account();
    const reader = await account();
    const blueprint = await newBlueprint(owner);
    // A private draft is as absent to another user as a missing plan.
    const hidden = await connect(blueprint.uuid, reader.tokenStore.getToken(), 'blueprint');
    expect(hidden.refused).toBeDefined();
    expect(hidden.ydoc.getXmlFragment('content').length).toBe(0);

    await owner.client.blueprints.publish(blueprint.uuid, { visibility: 'public' });
    const writer = await connect(blueprint.uuid, owner.tokenStore.getToken(), 'blueprint');
    const follower = openLiveDocument({
      baseUrl: server.url,
      documentId: blueprint.uuid,
      kind: 'blueprint',
      token: reader.tokenStore.getToken,
      user: { name: 'Investor', color: '#aa3366' },
      WebSocket,
    });
    opened.push(follower);
    await settled(follower, (s) => s.synced && s.readOnly);
    typeInto(writer.ydoc, 'The owner writes. ');
    await acknowledged(writer.provider);
    await untilContent(follower.document, (document) =>
      blockText(firstSubsectionParagraph(document)).includes('The owner writes. '),
    );
    // The reader's replica changes only locally: the server refuses it, and it never counts as saved.
    typeInto(follower.document, 'A reader tries to write. ');
    expect(follower.getSnapshot().saved).toBe(false);
    typeInto(writer.ydoc, 'The owner again. ');
    await acknowledged(writer.provider);
    await untilContent(follower.document, (document) =>
      blockText(firstSubsectionParagraph(document)).includes('The owner again. '),
    );
    const stored = await owner.client.blueprints.get(blueprint.uuid);
    const text = blockText(firstSubsectionParagraph(stored.content as DocumentJson));
    expect(text).toContain('The owner again. ');
    expect(text).not.toContain('A reader tries to write. ');
    expect(blockText(firstSubsectionParagraph(readLiveContent(writer.ydoc).document))).not.toContain(
      'A reader tries to write. ',
    );
    expect(follower.getSnapshot().saved).toBe(false);

    // Unpublished: the reader's connection closes, and reconnecting is refused like any stranger's.
    await owner.client.blueprints.unpublish(blueprint.uuid);
    expect((await settled(follower, (s) => s.error !== null)).error).toEqual({
      code: 'refused',
      message: LIVE_REFUSED,
    });
    // The owner's connection was left alone: typing goes on, acknowledged, with no reconnect.
    expect(writer.provider.isAuthenticated).toBe(true);
    typeInto(writer.ydoc, 'Still writing after unpublishing. ');
    await acknowledged(writer.provider);
    const back = await connect(blueprint.uuid, owner.tokenStore.getToken(), 'blueprint');
    expect(back.provider.authorizedScope).toBe('read-write');
    expect(blockText(firstSubsectionParagraph(readLiveContent(back.ydoc).document))).toContain(
      'Still writing after unpublishing. ',
    );
  });

  it('LB3 the seeded default blueprint is read-only to everyone; a deleted blueprint closes its connections', async () => {
    const owner = await account();
    const defaults = await owner.client.blueprints.available();
    const seeded = defaults.items.find((item) => item.title === 'Business Plan');
    if (!seeded) throw new Error('no Business Plan blueprint');
    const follower = await connect(seeded.uuid, owner.tokenStore.getToken(), 'blueprint');
    expect(follower.refused).toBeUndefined();
    expect(follower.provider.authorizedScope).toBe('readonly');

    const blueprint = await newBlueprint(owner);
    const live = openLiveDocument({
      baseUrl: server.url,
      documentId: blueprint.uuid,
      kind: 'blueprint',
      token: owner.tokenStore.getToken,
      WebSocket,
    });
    opened.push(live);
    await settled(live, (s) => s.synced);
    await owner.client.blueprints.delete(blueprint.uuid);
    expect((await settled(live, (s) => s.error !== null)).error).toEqual({
      code: 'refused',
      message: LIVE_DELETED,
    });
  });
});

describe('live plans held open per instance (LM)', () => {
  let bounded: TestServer;
  beforeAll(async () => {
    bounded = await startTestServer({ env: { LIVE_DOCUMENTS: 'on', LIVE_MAX_DOCUMENTS: '2' } });
  });
  afterAll(async () => {
    await bounded?.close();
  });

  /** A new account on the bounded server with `count` plans, and how to open one of them live. */
  async function ownerWithPlans(count: number, title: string) {
    const owner = await signUpWithSdk(bounded, `live-bounded-${++counter}@example.com`);
    const plans = await Promise.all(
      Array.from({ length: count }, (_, i) => owner.client.documents.create({ title: `${title} ${i}` })),
    );
    const open = (documentId: string) => {
      const live = openLiveDocument({
        baseUrl: bounded.url,
        documentId,
        token: owner.tokenStore.getToken,
        WebSocket,
        busyRetryDelayMs: () => 20,
      });
      opened.push(live);
      return live;
    };
    return { owner, plans, open };
  }

  it('LM1 past LIVE_MAX_DOCUMENTS a plan is refused as busy, and opens by itself once one is closed; LM2 closed plans are unloaded', async () => {
    // Made from the default blueprint ("Business Plan"), which has a paragraph in a subsection to type in.
    const { owner, plans, open } = await ownerWithPlans(4, 'Bounded');
    // LM2: plans opened and closed one after another never add up (each is unloaded when left).
    for (const plan of [...plans, ...plans]) {
      const live = open(plan.uuid);
      await settled(live, (s) => s.synced);
      live.destroy();
    }

    // Two plans in first: opened together with the third, any two of the three could take the places.
    const [first, second] = plans.slice(0, 2).map((plan) => open(plan.uuid));
    if (!first || !second) throw new Error('two plans');
    await Promise.all([settled(first, (s) => s.synced), settled(second, (s) => s.synced)]);
    const third = open(plans[2]?.uuid ?? '');
    const busy = await settled(third, (s) => s.error !== null);
    expect(busy.error).toEqual({ code: 'busy', message: LIVE_BUSY });
    expect(busy.synced).toBe(false);
    // A second person on an open plan is no new plan: let in.
    const again = open(plans[0]?.uuid ?? '');
    await settled(again, (s) => s.synced);

    second.destroy();
    const recovered = await settled(third, (s) => s.synced);
    expect(recovered.error).toBeNull();
    typeInto(third.document, 'In at last. ');
    await third.whenSaved();
    const read = await owner.client.documents.get(plans[2]?.uuid ?? '');
    expect(JSON.stringify(read.content)).toContain('In at last. ');
  });

  it("LM2 a LiveDocument disconnected (a hidden tab, W41) gives its plan's place back; changes made meanwhile arrive on connect", async () => {
    const { owner, plans, open } = await ownerWithPlans(3, 'Paused');
    const [hidden, shown] = plans.slice(0, 2).map((plan) => open(plan.uuid));
    if (!hidden || !shown) throw new Error('two plans');
    await Promise.all([settled(hidden, (s) => s.synced), settled(shown, (s) => s.synced)]);
    hidden.disconnect();
    await settled(hidden, (s) => s.status === 'disconnected');
    // Its place is free: a third plan gets in (the server holds two at most).
    const third = open(plans[2]?.uuid ?? '');
    await settled(third, (s) => s.synced);
    third.destroy();
    // Typed while disconnected: kept in the replica, not saved, and nothing reconnects by itself.
    typeInto(hidden.document, 'Written in a hidden tab. ');
    expect(hidden.getSnapshot()).toMatchObject({ status: 'disconnected', saved: false });
    hidden.connect();
    await hidden.whenSaved();
    const read = await owner.client.documents.get(plans[0]?.uuid ?? '');
    expect(JSON.stringify(read.content)).toContain('Written in a hidden tab. ');
  });
});
