import { ApiError } from '@planwright/sdk';
import { type LiveDocument, openLiveDocument, readLiveContent } from '@planwright/sdk/live';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { settled, storedParagraphs, typeIntoParagraph, untilContent } from '../support/live-replicas.js';
import { rejectionOf, type SdkAccount, signUpWithSdk } from '../support/sdk-accounts.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Versions through the SDK against the real server (docs/versions.md): a version keeps what people typed in
 * the live plan, and restoring it reaches the people with the plan open as a change, not a reload.
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

/** The plan opened live as `account`, once it is in step with the server. */
async function openSynced(account: SdkAccount, documentId: string): Promise<LiveDocument> {
  const live = openLiveDocument({
    baseUrl: server.url,
    documentId,
    token: account.tokenStore.getToken,
    WebSocket,
  });
  opened.push(live);
  await settled(live, (s) => s.synced);
  return live;
}

const paragraphTexts = (live: LiveDocument): string[] => {
  const texts: string[] = [];
  const visit = (node: { type?: string; text?: string; content?: unknown[] }) => {
    if (node.type === 'paragraph')
      texts.push((node.content ?? []).map((leaf) => (leaf as { text?: string }).text ?? '').join(''));
    else for (const child of node.content ?? []) visit(child as typeof node);
  };
  visit(readLiveContent(live.document).document as unknown as { content?: unknown[] });
  return texts;
};

describe('versions through the SDK', () => {
  it('VS1 a named version keeps what was typed live; restoring it reaches the open plan as a change, and is undone by restoring again', async () => {
    const owner = await signUpWithSdk(server, 'versions-owner@example.com');
    const plan = await owner.client.documents.create({ title: 'Live versions' });
    const live = await openSynced(owner, plan.uuid);
    typeIntoParagraph(live.document, 0, 'Typed before the bank saw it.');
    await live.whenSaved();
    const v3 = await owner.client.versions.create(plan.uuid, { name: 'Sent to bank, v3' });
    expect(v3).toMatchObject({ name: 'Sent to bank, v3', kind: 'named', title: 'Live versions' });
    typeIntoParagraph(live.document, 0, ' And a rewrite after.');
    await live.whenSaved();
    expect((await storedParagraphs(owner.client, plan.uuid))[0]).toBe(
      'Typed before the bank saw it. And a rewrite after.',
    );

    const read = await owner.client.versions.get(plan.uuid, 'sent to bank, V3');
    expect(read.id).toBe(v3.id);
    expect(JSON.stringify(read.content)).toContain('Typed before the bank saw it.');
    expect(JSON.stringify(read.content)).not.toContain('And a rewrite after.');

    const restored = await owner.client.versions.restore(plan.uuid, v3.id);
    expect(restored.revision).toBeGreaterThan(plan.revision ?? 0);
    await untilContent(live.document, () => paragraphTexts(live)[0] === 'Typed before the bank saw it.');
    const history = await owner.client.versions.list(plan.uuid);
    const before = history.items.find((version) => version.kind === 'before_restore');
    expect(before).toBeDefined();
    await owner.client.versions.restore(plan.uuid, before?.id ?? '');
    await untilContent(
      live.document,
      () => paragraphTexts(live)[0] === 'Typed before the bank saw it. And a rewrite after.',
    );
  });

  it('VS3 a diff from a version to now, as data and as Markdown, word by word', async () => {
    const owner = await signUpWithSdk(server, 'versions-diff@example.com');
    const plan = await owner.client.documents.create({ title: 'Diffed' });
    const live = await openSynced(owner, plan.uuid);
    typeIntoParagraph(live.document, 0, 'A market of 3 billion.');
    await live.whenSaved();
    await owner.client.versions.create(plan.uuid, { name: 'v1' });
    typeIntoParagraph(live.document, 0, ' Growing.');
    await live.whenSaved();
    const diff = await owner.client.versions.diff(plan.uuid, { from: 'v1' });
    expect(diff.from).toMatchObject({ name: 'v1' });
    expect(diff.to).toEqual({ now: true });
    expect(diff.summary.changed).toBe(1);
    const words = diff.sections.flatMap((section) => section.subsections).find((part) => part.words)?.words;
    expect(words?.filter((run) => run.kind !== 'same')).toEqual([{ kind: 'added', text: ' Growing.' }]);
    const markdown = await owner.client.versions.diffMarkdown(plan.uuid, { from: 'v1', to: 'now' });
    expect(markdown).toContain('A market of 3 billion.{++ Growing.++}');
    const missing = await rejectionOf(owner.client.versions.diff(plan.uuid, { from: 'no such version' }));
    expect(ApiError.isInstance(missing) && missing.status === 404).toBe(true);
  });

  it('VS2 refusals are typed: a taken name, a version of another plan, a bad name never sent', async () => {
    const owner = await signUpWithSdk(server, 'versions-refusals@example.com');
    const plan = await owner.client.documents.create({ title: 'One' });
    const other = await owner.client.documents.create({ title: 'Two' });
    const kept = await owner.client.versions.create(plan.uuid, { name: 'Start' });
    const taken = await rejectionOf(owner.client.versions.create(plan.uuid, { name: 'START' }));
    expect(
      ApiError.isInstance(taken) && taken.status === 409 && taken.serverCode === 'version_name_taken',
    ).toBe(true);
    const foreign = await rejectionOf(owner.client.versions.restore(other.uuid, kept.id));
    expect(ApiError.isInstance(foreign) && foreign.status === 404).toBe(true);
    await expect(owner.client.versions.create(plan.uuid, { name: '  ' })).rejects.toThrow(
      'Name cannot be empty',
    );
    await expect(owner.client.versions.create(plan.uuid, { name: 'now' })).rejects.toThrow('an id or "now"');
    expect((await owner.client.versions.list(other.uuid)).items).toEqual([]);
  });

  it('VS4 share links: made for a version with every setting, listed with their views, found and turned off by URL', async () => {
    const owner = await signUpWithSdk(server, 'share-links-owner@example.com');
    const plan = await owner.client.documents.create({ title: 'Shared plan' });
    await owner.client.versions.create(plan.uuid, { name: 'Sent to bank, v3' });
    const expiresAt = new Date(Date.now() + 7 * 24 * 60 * 60_000);
    const link = await owner.client.shareLinks.create(plan.uuid, {
      label: 'Acme Ventures',
      version: 'sent to bank, v3',
      expiresAt,
      password: 'open sesame',
      allowDownload: true,
    });
    expect(link).toMatchObject({
      label: 'Acme Ventures',
      version: { name: 'Sent to bank, v3', kind: 'named' },
      expires_at: expiresAt.toISOString(),
      has_password: true,
      allow_download: true,
      status: 'active',
    });
    const path = new URL(link.url).pathname;
    // Read as someone without an account: the password form, then nothing counted until it is given.
    const form = await fetch(`${server.url}${path}`);
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('protected by a password');
    const [listed] = await owner.client.shareLinks.list(plan.uuid);
    expect(listed).toMatchObject({ id: link.id, views: { total: 0, unique_visitors: 0 } });
    expect(listed).not.toHaveProperty('url');
    expect((await owner.client.shareLinks.get(plan.uuid, link.url)).id).toBe(link.id);

    const revoked = await owner.client.shareLinks.revoke(plan.uuid, link.url);
    expect(revoked).toMatchObject({ id: link.id, status: 'revoked' });
    expect((await fetch(`${server.url}${path}`)).status).toBe(410);
    // Again: already off, still fine.
    expect((await owner.client.shareLinks.revoke(plan.uuid, link.id)).status).toBe('revoked');

    // Refusals: bad settings never sent; an unknown version, or a link of another plan, answer 404.
    await expect(owner.client.shareLinks.create(plan.uuid, { password: 'short' })).rejects.toThrow(
      'at least 6 characters',
    );
    await expect(owner.client.shareLinks.create(plan.uuid, { expiresAt: 'next week' })).rejects.toThrow(
      'expiresAt',
    );
    const unknown = await rejectionOf(owner.client.shareLinks.create(plan.uuid, { version: 'v99' }));
    expect(ApiError.isInstance(unknown) && unknown.status === 404).toBe(true);
    const other = await owner.client.documents.create({ title: 'Another plan' });
    const foreign = await rejectionOf(owner.client.shareLinks.revoke(other.uuid, link.id));
    expect(ApiError.isInstance(foreign) && foreign.status === 404).toBe(true);
  });
});
