import type { DocumentDetail } from '@planwright/sdk';
import { documentToDocx } from '@planwright/sdk/formats/node';
import type { DocumentJson } from '@planwright/sdk/model';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { useBrowserHarness } from '../support/browser.js';
import { chatPanel, chatReady, firstParts, sendChatMessage, suggestionBar } from '../support/chat-page.js';
import {
  createDefaultDocument,
  type EditorUser,
  editorParts,
  openEditor,
  signedInEditorUser,
  subsectionBody,
} from '../support/editor-page.js';
import {
  executionHookScript,
  executionReport,
  HOOK_PAYLOADS,
  hostileHrefs,
  hostileStrings,
  injectionStrings,
  packed,
  withoutControls,
} from '../support/hostile-strings.js';
import { type OpenAiStreamServer, startOpenAiStreamServer } from '../support/openai-stream-server.js';

/**
 * Issue 10 "Security suite", stored XSS (docs/accessibility.md X1–X3): every string of the corpus's
 * hostile-strings list, and every hostile link, written through every input and read back on every page
 * that shows it, in Chromium: nothing of it runs.
 */

let model: OpenAiStreamServer | undefined;
const harness = useBrowserHarness(async () => {
  model = await startOpenAiStreamServer();
  return { env: model.providerEnv() };
});
afterAll(async () => {
  await model?.close();
});

const ALL = [...hostileStrings(), ...HOOK_PAYLOADS];
const INJECTIONS = [...injectionStrings(ALL)];
const HREFS = hostileHrefs(ALL);

/** A paragraph per string, every one with a hostile link over part of it (link marks cycle the hrefs). */
function hostileParagraphs(strings: readonly string[], offset: number) {
  return strings.map((value, index) => {
    const text = withoutControls(value).trim() || 'x';
    const href = HREFS[(offset + index) % HREFS.length] ?? '';
    return {
      type: 'paragraph',
      content: [
        { type: 'text', text },
        { type: 'text', text: ' link', marks: [{ type: 'link', attrs: { href } }] },
      ],
    };
  });
}

/** A content tree whose section and subsection titles are every string, packed, and whose text is all of them. */
function hostileContent() {
  const titles = packed(ALL, 200);
  const perSection = 8;
  const sections = [];
  for (let start = 0; start < titles.length; start += perSection) {
    const group = titles.slice(start, start + perSection);
    sections.push({
      type: 'section',
      content: [
        { type: 'sectionHeading', attrs: { level: 1 }, content: [{ type: 'text', text: group[0] ?? 'x' }] },
        ...group.map((title, index) => ({
          type: 'subsection',
          content: [
            { type: 'subsectionHeading', attrs: { level: 2 }, content: [{ type: 'text', text: title }] },
            ...hostileParagraphs(ALL.slice((start + index) * 6, (start + index) * 6 + 6), start + index),
          ],
        })),
      ],
    });
  }
  // Sent unnormalised on purpose (no ids, no attrs): the server's normaliser is part of what is tested.
  return { type: 'doc', content: sections } as unknown as DocumentJson;
}

/** Markdown whose headings, text, raw HTML and links are the hostile strings. */
function hostileMarkdown(): string {
  const lines = ALL.map((value) => withoutControls(value));
  const links = HREFS.map((href, index) => `[link ${index}](${href}) <${href}>`);
  return [
    ...packed(INJECTIONS, 150).flatMap((title, index) => [
      index % 3 === 0 ? `# ${title}` : `## ${title}`,
      '',
    ]),
    ...lines.map((line) => `${line}\n`),
    ...links,
  ].join('\n');
}

async function expectNothingRan(page: Page, where: string): Promise<void> {
  const report = await executionReport(page);
  expect({ where, ...report }).toEqual({ where, hookCalls: [], cspViolations: [], liveMarkup: [] });
}

/** Visits `path`, waits for `ready`, and checks nothing ran. */
async function visit(page: Page, path: string, where: string): Promise<void> {
  await page.goto(`${harness.server.url}${path}`);
  await page.locator('h1, h2').first().waitFor();
  await page.locator('.loading').first().waitFor({ state: 'detached', timeout: 10_000 });
  await expectNothingRan(page, where);
}

async function hostileUser(email: string): Promise<EditorUser> {
  const user = await signedInEditorUser(harness, email, { installClock: true });
  await user.page.context().addInitScript(executionHookScript());
  return user;
}

describe('stored XSS: hostile strings written through every input, rendered in Chromium', () => {
  it('X1: titles, descriptions, content JSON with hostile links, Markdown and .docx imports, profile and organisation names run nothing on any page', async () => {
    const user = await hostileUser('xss-owner@example.com');
    const { client, page } = user;
    // The hook must see a run and live markup, or every check below could pass blind.
    await page.reload();
    await page.evaluate(() => {
      window.alert('probe');
      const probe = document.createElement('div');
      probe.innerHTML = '<a href="javascript:__pwned(1)">probe</a>';
      document.body.append(probe);
    });
    const probe = await executionReport(page);
    expect(probe.hookCalls).toEqual(['alert:probe']);
    expect(probe.liveMarkup).toContain('A javascript:__pwned(1)');
    await page.reload();
    const titles = packed(INJECTIONS, 200);
    const descriptions = packed(ALL, 5000);

    // Inputs: profile, organisations, documents, a blueprint, imports.
    const profile = await fetch(`${harness.server.url}/api/v1/app/me/`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'x-session-token': user.token },
      body: JSON.stringify({ first_name: titles[0]?.slice(0, 150), last_name: titles[1]?.slice(0, 150) }),
    });
    expect(profile.status).toBe(200);
    const organizations = [];
    for (const name of packed(INJECTIONS, 100).slice(0, 3)) {
      organizations.push(await client.organizations.create({ name }));
    }
    const documents: DocumentDetail[] = [];
    for (const [index, title] of titles.slice(0, 4).entries()) {
      const created = await createDefaultDocument(user);
      documents.push(
        await client.documents.update(created.uuid, {
          title,
          description: descriptions[index % descriptions.length] ?? '',
          ...(index === 0 ? { content: hostileContent() } : {}),
        }),
      );
    }
    const [main, fromMarkdown, fromDocx] = documents;
    if (!main || !fromMarkdown || !fromDocx) throw new Error('the documents were not made');
    await client.documents.importFile(
      fromMarkdown.uuid,
      { name: 'hostile.md', bytes: new TextEncoder().encode(hostileMarkdown()) },
      { mode: 'replace' },
    );
    // The stored tree is the normalised one the exporter takes; its text and links are the hostile ones.
    if (!main.content) throw new Error('the document has no content');
    const docx = await documentToDocx(main.content, { title: titles[2] ?? 'x' });
    await client.documents.importFile(
      fromDocx.uuid,
      { name: 'hostile.docx', bytes: docx },
      { mode: 'replace' },
    );
    const blueprint = await client.blueprints.create({ title: titles[3] ?? 'x' });
    await client.blueprints.update(blueprint.uuid, {
      description: descriptions[0] ?? '',
      content: hostileContent(),
      visibility: 'restricted',
      allowed_orgs: organizations.map((organization) => organization.id),
    });
    const listed = await client.blueprints.create({ title: titles[4] ?? 'x' });
    await client.blueprints.publish(listed.uuid, { visibility: 'public' });

    // Pages: everything that shows what was written.
    for (const [path, where] of [
      ['/dashboard', 'dashboard'],
      ['/dashboard/documents', 'documents list'],
      [`/dashboard/documents/${main.uuid}`, 'document page with activity'],
      ['/dashboard/blueprints', 'blueprints list'],
      [`/dashboard/blueprints/${blueprint.uuid}`, 'blueprint page with the marketplace form'],
      ['/dashboard/profile', 'profile'],
    ] as const) {
      await visit(page, path, where);
    }
    for (const document of [main, fromMarkdown, fromDocx]) {
      await openEditor(harness, page, document.uuid);
      await expectNothingRan(page, `editor of ${document.uuid}`);
    }
    await page.goto(`${harness.server.url}/dashboard/blueprints/${blueprint.uuid}/edit`);
    await editorParts(page).editor.waitFor();
    await expectNothingRan(page, 'blueprint editor');

    // The marketplace as another user sees it: the New Document dialog lists the public blueprint.
    const other = await hostileUser('xss-reader@example.com');
    await other.page.goto(`${harness.server.url}/dashboard/documents`);
    await other.page.getByRole('button', { name: 'New Document' }).click();
    await other.page.getByRole('dialog', { name: 'Select a Blueprint' }).getByRole('radio').first().waitFor();
    await expectNothingRan(other.page, 'New Document dialog (marketplace)');
    expect([...user.dialogs, ...other.dialogs]).toEqual([]);
  });

  it('X2: hostile AI chat answers and proposals run nothing in the chat panel, the suggestions in the text and the editor', async () => {
    const user = await hostileUser('xss-chat@example.com');
    const { page } = user;
    const document = await createDefaultDocument(user);
    const { section, subsection } = firstParts(document);
    await openEditor(harness, page, document.uuid, { section: section.uuid, subsection: subsection.uuid });
    await chatReady(page);

    const answer = [...INJECTIONS, ...HREFS.map((href) => `[open](${href})`)].join('\n\n');
    const proposal = [
      ...INJECTIONS.slice(0, 60),
      ...HREFS.slice(0, 30).map((href) => `[see](${href})`),
      '<p onclick="__pwned(\'p\')">html</p>',
    ].join('\n\n');
    if (!model) throw new Error('the model server is not running');
    model.script({
      type: 'answer',
      text: answer,
      toolCalls: [
        {
          name: 'propose_full_subsection',
          arguments: { subsection_uuid: subsection.uuid, format: 'markdown', content: proposal },
        },
      ],
    });
    await sendChatMessage(page, '<img src=x onerror="__pwned(\'user message\')">');
    const card = chatPanel(page).cards.first();
    await expect.poll(() => card.getAttribute('data-status'), { timeout: 20_000 }).toBe('pending');
    await expectNothingRan(page, 'chat panel');

    await card.click();
    const bar = suggestionBar(page);
    await bar.waitFor();
    await expectNothingRan(page, 'suggestions in the text');
    await bar.getByRole('button', { name: 'Accept', exact: true }).click();
    await bar.waitFor({ state: 'hidden' });
    await expect.poll(() => subsectionBody(page, subsection.uuid).textContent()).toContain('script');
    await expectNothingRan(page, 'editor after accepting');
    await visit(page, `/dashboard/documents/${document.uuid}`, 'document page after the chat');
    expect(user.dialogs).toEqual([]);
  });
});
