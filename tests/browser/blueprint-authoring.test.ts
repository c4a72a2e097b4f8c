import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowserHarness } from '../support/browser.js';
import { badgeSaved, failedAnswer, signedInEditorUser } from '../support/editor-page.js';

const harness = useBrowserHarness();

const HINTS = {
  market: 'Say who buys, how many of them there are, and what they pay today.',
  customers: 'Name three customers you have spoken to — and what they said.',
  evidence: 'Link the studies behind every number: تحقق من المصادر 🔍',
} as const;
const MCP_URL = 'https://mcp.example.org/sse';

/** A blueprint read while it is not the reader's to see: the page says so, and Chromium logs the 404. */
const BLUEPRINT_NOT_VISIBLE = failedAnswer(404, /\/api\/v1\/blueprints\/[^/]+\/$/);

/** The blueprint editor's settings panel. */
function settingsPanel(page: Page): Locator {
  return page.getByRole('region', { name: 'Settings' });
}

/** Waits until the settings of the part shown are saved. */
async function settingsSaved(page: Page): Promise<void> {
  await expect
    .poll(() => page.getByRole('status', { name: 'Settings save status' }).textContent())
    .toBe('Saved');
}

/** Selects a sidebar item by its title. */
async function select(page: Page, title: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('button', { name: title, exact: true })
    .click();
}

/** Renames the selected part through the settings panel's Title field (saved when the field is left). */
async function retitle(page: Page, from: string, to: string): Promise<void> {
  const title = settingsPanel(page).getByLabel('Title', { exact: true });
  await expect.poll(() => title.inputValue()).toBe(from);
  await title.fill(to);
  await title.press('Enter');
  await page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('button', { name: to, exact: true })
    .waitFor();
}

/** The titles the New Document modal offers the user of `page`. */
async function offeredBlueprints(page: Page): Promise<string[]> {
  await page.goto(`${harness.server.url}/dashboard/documents`);
  await page.getByRole('button', { name: 'New Document' }).click();
  const dialog = page.getByRole('dialog', { name: 'Select a Blueprint' });
  await dialog.getByRole('radio').first().waitFor();
  const titles = await dialog
    .locator('label')
    .evaluateAll((labels) => labels.map((label) => label.querySelector('.font-semibold')?.textContent ?? ''));
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  return titles;
}

/** The hints shown on the editor's canvas, in order. */
async function canvasHints(page: Page): Promise<string[]> {
  return page.locator('.pw-hint').evaluateAll((hints) => hints.map((hint) => hint.textContent ?? ''));
}

describe('blueprint authoring and the marketplace in Chromium against the real server', () => {
  it('an author writes a blueprint with hints and MCP, publishes it to an organisation; a member uses it, an outsider never sees it', async () => {
    const author = await signedInEditorUser(harness, 'ada.author@example.com');
    const member = await signedInEditorUser(harness, 'bea.member@example.com');
    const outsider = await signedInEditorUser(harness, 'cy.outsider@example.com', {
      expected: [BLUEPRINT_NOT_VISIBLE],
    });
    const studio = await author.client.organizations.create({ name: 'Northwind Studio' });
    await author.client.organizations.addMember(studio.id, { email: 'bea.member@example.com' });

    // New Blueprint opens the editor of a private draft with one section and one subsection.
    const page = author.page;
    await page.goto(`${harness.server.url}/dashboard/blueprints`);
    await page.getByRole('button', { name: 'New Blueprint' }).click();
    await page.waitForURL(/\/dashboard\/blueprints\/[^/]+\/edit/);
    await page.getByTestId('blueprint-workspace').waitFor();
    await page.getByRole('textbox', { name: 'Document editor' }).waitFor();
    const uuid = new URL(page.url()).pathname.split('/').at(-2) ?? '';
    expect(await page.getByRole('region', { name: 'AI assistant' }).count()).toBe(0);

    // File › Rename Blueprint: a blank title is refused in the spec's words.
    await page.getByRole('button', { name: 'File', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename Blueprint' });
    await rename.getByLabel('Title').fill('  ');
    await page.keyboard.press('Enter');
    await rename.getByText('Title cannot be empty').waitFor();
    await rename.getByLabel('Title').fill('Climate Seed Plan');
    await page.keyboard.press('Enter');
    await rename.waitFor({ state: 'detached' });

    // The first section and its subsection: titles and hints from the settings panel.
    await select(page, 'New Section');
    await retitle(page, 'New Section', 'Market');
    await settingsPanel(page).getByLabel('User hint').fill(HINTS.market);
    await settingsPanel(page).getByLabel('Developer prompt').fill('Use current market data; cite it.');
    await settingsSaved(page);
    await select(page, 'New Subsection');
    await retitle(page, 'New Subsection', 'Customers');
    await settingsPanel(page).getByLabel('User hint').fill(HINTS.customers);
    await settingsSaved(page);

    // A second section, with MCP: the URL is enabled only for MCP, and a bad one is not saved.
    await page.getByRole('button', { name: '+ AI' }).click();
    await page.getByRole('menuitem', { name: 'New Section' }).click();
    await retitle(page, 'New Section', 'Evidence');
    const panel = settingsPanel(page);
    expect(await panel.getByLabel('MCP URL').isDisabled()).toBe(true);
    await panel.getByText('Enable MCP to set a URL.').waitFor();
    await panel.getByLabel('Tool mode').selectOption('mcp');
    await panel.getByLabel('MCP URL').fill('ftp://files.example.org');
    await panel.getByText('Please enter a valid URL (http:// or https://).').waitFor();
    await panel.getByLabel('MCP URL').fill(MCP_URL);
    await panel.getByLabel('User hint').fill(HINTS.evidence);
    await settingsSaved(page);

    // The author sees the hints as founders will, under each heading.
    await expect.poll(() => canvasHints(page)).toEqual([HINTS.market, HINTS.customers, HINTS.evidence]);
    await badgeSaved(page, () =>
      page.getByRole('status', { name: 'Save status', exact: true }).textContent(),
    );

    const saved = await author.client.blueprints.get(uuid);
    expect(saved.title).toBe('Climate Seed Plan');
    expect(saved.sections.map((section) => section.title)).toEqual(['Market', 'Evidence']);
    expect(saved.sections[0]?.user_hint).toBe(HINTS.market);
    expect(saved.sections[0]?.subsections[0]?.user_hint).toBe(HINTS.customers);
    expect(saved.sections[1]).toMatchObject({
      tool_mode: 'mcp',
      mcp_url: MCP_URL,
      user_hint: HINTS.evidence,
    });
    expect(JSON.stringify(saved.content)).not.toContain(HINTS.market);

    // Export as .md is for documents only.
    await page.getByRole('button', { name: 'File', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Export as .md' }).click();
    await page.getByText('Markdown export is available for Documents.').waitFor();

    // Publish it, restricted to the studio, from its page's marketplace form.
    await page
      .getByRole('navigation', { name: 'Breadcrumb' })
      .getByRole('link', { name: 'Climate Seed Plan' })
      .click();
    await page.waitForURL(`${harness.server.url}/dashboard/blueprints/${uuid}`);
    await page.getByLabel('Status', { exact: true }).selectOption('published');
    await page.getByLabel('Visibility', { exact: true }).selectOption('restricted');
    await page.getByRole('checkbox', { name: 'Northwind Studio' }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes saved.').waitFor();
    const published = await author.client.blueprints.get(uuid);
    expect(published).toMatchObject({
      status: 'published',
      visibility: 'restricted',
      allowed_orgs: [studio.id],
    });
    expect(published.published_at).not.toBeNull();

    // A member of the studio makes a document from it and sees the hints in the editor.
    expect(await offeredBlueprints(member.page)).toContain('Climate Seed Plan');
    await member.page.getByRole('button', { name: 'New Document' }).click();
    const create = member.page.getByRole('dialog', { name: 'Select a Blueprint' });
    await create.getByRole('radio', { name: /Climate Seed Plan/ }).check();
    await create.getByRole('button', { name: 'Create Document' }).click();
    await member.page.waitForURL(/\/dashboard\/documents\/[^/]+$/);
    const documentUuid = new URL(member.page.url()).pathname.split('/').at(-1) ?? '';
    await member.page.getByRole('link', { name: 'Edit' }).click();
    await member.page.getByTestId('document-workspace').waitFor();
    await expect
      .poll(() => canvasHints(member.page))
      .toEqual([HINTS.market, HINTS.customers, HINTS.evidence]);
    // The caret moves across a hint as if it were not there: ArrowDown from the title lands in the text.
    const customers = member.page.locator('.pw-subsection').filter({ hasText: 'Customers' }).first();
    await customers.locator('h2').click();
    await member.page.keyboard.press('End');
    await member.page.keyboard.press('ArrowDown');
    await member.page.keyboard.type('Zed');
    await expect
      .poll(() => customers.locator('.pw-subsection-content > p').first().textContent())
      .toContain('Zed');
    expect(await customers.locator('.pw-hint-text').textContent()).toBe(HINTS.customers);
    const made = await member.client.documents.get(documentUuid);
    expect(made.sections.map((section) => section.title)).toEqual(['Market', 'Evidence']);
    expect(made.sections[1]).toMatchObject({ tool_mode: 'mcp', mcp_url: MCP_URL });
    expect(JSON.stringify(made.content)).not.toContain(HINTS.customers);
    // The member may read the blueprint itself: View opens it in the editor, read-only (live SPEC LB2).
    await member.page.goto(`${harness.server.url}/dashboard/blueprints/${uuid}`);
    await member.page.getByRole('link', { name: 'View' }).click();
    const readOnly = member.page.getByRole('textbox', { name: 'Document editor' });
    await readOnly.waitFor();
    expect(await readOnly.getAttribute('contenteditable')).toBe('false');

    // Someone outside the studio neither sees it offered nor can open it by its address.
    expect(await offeredBlueprints(outsider.page)).not.toContain('Climate Seed Plan');
    await outsider.page.goto(`${harness.server.url}/dashboard/blueprints/${uuid}`);
    await outsider.page.getByText('Blueprint not found.').waitFor();
    await outsider.page.goto(`${harness.server.url}/dashboard/blueprints/${uuid}/edit`);
    await outsider.page.getByRole('heading', { name: 'Blueprint not found.' }).waitFor();
  });
});
