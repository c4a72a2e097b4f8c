import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  ALLAUTH_PROTOCOL_ANSWERS,
  type ExpectedConsoleError,
  useBrowserHarness,
} from '../support/browser.js';
import { signIn, verifiedAccount } from '../support/browser-accounts.js';

const harness = useBrowserHarness({}, { colorScheme: 'dark' });

/** The available blueprints answered 503 on purpose (the default-template test). */
const AVAILABLE_BLUEPRINTS_DOWN: ExpectedConsoleError = {
  text: /^Failed to load resource: the server responded with a status of 503 /,
  url: /\/api\/v1\/blueprints\/available\//,
};

/** A signed-in page for `email` (a fresh, verified account), on the dashboard. */
async function signedIn(email: string, expected: readonly ExpectedConsoleError[] = []): Promise<Page> {
  await verifiedAccount(harness.server, email);
  const page = await harness.openPage({}, { expected: [ALLAUTH_PROTOCOL_ANSWERS, ...expected] });
  await page.goto(`${harness.server.url}/account/signin`);
  await signIn(page, email);
  await page.waitForURL(`${harness.server.url}/dashboard`);
  return page;
}

/** Opens the New Document modal of the documents page and waits for its blueprints. */
async function openNewDocument(page: Page) {
  await page.goto(`${harness.server.url}/dashboard/documents`);
  await page.getByRole('button', { name: 'New Document' }).click();
  const dialog = page.getByRole('dialog', { name: 'Select a Blueprint' });
  await dialog.getByRole('radio').first().waitFor();
  return dialog;
}

/** The titles the New Document modal offers. */
async function offeredTitles(page: Page): Promise<string[]> {
  const dialog = await openNewDocument(page);
  const labels = await dialog
    .locator('label')
    .evaluateAll((elements) =>
      elements.map((element) => element.querySelector('.font-semibold')?.textContent ?? ''),
    );
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });
  return labels;
}

async function chooseAction(page: Page, menu: string, action: string): Promise<void> {
  await page.getByRole('button', { name: menu }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

describe('documents and blueprints in Chromium against the real server', () => {
  it('creates a document from the default blueprint, renames it, sees it in Recent Documents at 0 %, deletes it', async () => {
    const page = await signedIn('founder@example.com');
    await page.getByRole('link', { name: 'View Documents' }).click();
    await page.getByRole('heading', { name: 'No documents yet' }).waitFor();

    const dialog = await openNewDocument(page);
    const preferred = dialog.getByRole('radio', { name: /Business Plan/ });
    expect(await preferred.isChecked()).toBe(true);
    await dialog.getByText('Planwright Studio').waitFor();
    await dialog.getByRole('button', { name: 'Create Document' }).click();
    await page.waitForURL(/\/dashboard\/documents\/[^/]+$/);
    await page.getByRole('heading', { level: 1, name: 'Business Plan' }).waitFor();
    await page.getByText('This document has no description yet.').waitFor();
    await page.getByText('Mar 15').waitFor();

    // Rename through the keyboard: the menu opens on ArrowDown, Enter saves the dialog.
    const title = 'Acme plan — مرحبا 🚀';
    await page.getByRole('button', { name: 'Document actions' }).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const rename = page.getByRole('dialog', { name: 'Rename document' });
    await rename.getByLabel('Title').fill('   ');
    await page.keyboard.press('Enter');
    await rename.getByText('Title cannot be empty').waitFor();
    await rename.getByLabel('Title').fill(title);
    await page.keyboard.press('Enter');
    await rename.waitFor({ state: 'detached' });
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Document actions',
    );

    // Recent Documents lists it, at 0 %, with its subsections.
    await page
      .getByRole('navigation', { name: 'Breadcrumb' })
      .getByRole('link', { name: 'Documents' })
      .click();
    const recent = page.getByRole('region', { name: 'Recent Documents' });
    await recent.getByRole('link', { name: title }).waitFor();
    await recent.getByText('0%').waitFor();
    await recent.getByText(/^0\/\d+ subsections$/).waitFor();
    expect(await recent.getByRole('progressbar').first().getAttribute('value')).toBe('0');
    await recent.getByText('In-progress').waitFor();

    // The activity of the creation and the rename shows on the dashboard.
    await page.goto(`${harness.server.url}/dashboard`);
    const activity = page.getByRole('region', { name: 'Recent Activity' });
    await activity.getByRole('listitem').first().waitFor();
    expect(await activity.getByRole('listitem').count()).toBeGreaterThanOrEqual(2);

    await page.goto(`${harness.server.url}/dashboard/documents`);
    await recent.getByRole('link', { name: title }).click();
    // Escape closes a dialog and gives the focus back to the menu button; nothing is deleted.
    await chooseAction(page, 'Document actions', 'Delete');
    const confirm = page.getByRole('dialog', { name: 'Delete document?' });
    expect(
      await confirm
        .getByRole('button', { name: 'Cancel' })
        .evaluate((button) => button === document.activeElement),
    ).toBe(true);
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Document actions',
    );
    await chooseAction(page, 'Document actions', 'Delete');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(`${harness.server.url}/dashboard/documents`);
    await page.getByRole('heading', { name: 'No documents yet' }).waitFor();
  });

  it('creates a document from the default template when the blueprints cannot be read (spec 000 §4)', async () => {
    const page = await signedIn('offline@example.com', [AVAILABLE_BLUEPRINTS_DOWN]);
    await page.route(/\/api\/v1\/blueprints\/available\//, (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"detail":"down"}' }),
    );
    await page.goto(`${harness.server.url}/dashboard/documents`);
    await page.getByRole('button', { name: 'New Document' }).click();
    const dialog = page.getByRole('dialog', { name: 'Select a Blueprint' });
    await dialog.getByText('An error occurred fetching blueprints.').waitFor();
    expect(await dialog.getByRole('radio').count()).toBe(0);
    const posted = page.waitForRequest(
      (request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/v1/documents/',
    );
    await dialog.getByRole('button', { name: 'Create Document' }).click();
    expect((await posted).postDataJSON()).toEqual({});
    await page.waitForURL(/\/dashboard\/documents\/[^/]+$/);
    await page.getByRole('heading', { level: 1, name: 'Business Plan' }).waitFor();
  });

  it('offers a published public blueprint to another user, and stops when it is made private', async () => {
    const author = await signedIn('author@example.com');
    const reader = await signedIn('reader@example.com');
    const template = 'Studio seed-round template';

    await author.goto(`${harness.server.url}/dashboard/blueprints`);
    // New Blueprint opens the new draft in the blueprint editor; its page is one breadcrumb away.
    await author.getByRole('button', { name: 'New Blueprint' }).click();
    await author.waitForURL(/\/dashboard\/blueprints\/[^/]+\/edit/);
    await author
      .getByRole('navigation', { name: 'Breadcrumb' })
      .getByRole('link', { name: 'Untitled Blueprint' })
      .click();
    await author.waitForURL(/\/dashboard\/blueprints\/[^/]+$/);
    await author.getByRole('heading', { level: 1, name: 'Untitled Blueprint' }).waitFor();
    await chooseAction(author, 'Blueprint actions', 'Rename');
    await author.getByRole('dialog', { name: 'Rename blueprint' }).getByLabel('Title').fill(template);
    await author.getByRole('button', { name: 'Save', exact: true }).click();
    await author.getByRole('heading', { level: 1, name: template }).waitFor();

    // A draft is never offered to anyone else.
    expect(await offeredTitles(reader)).not.toContain(template);

    await author.getByLabel('Status').selectOption('published');
    await author.getByLabel('Visibility').selectOption('public');
    await author.getByRole('button', { name: 'Save changes' }).click();
    await author.getByText('Changes saved.').waitFor();

    const offered = await offeredTitles(reader);
    expect(offered).toContain(template);
    expect(offered).toContain('Business Plan');

    await author.getByLabel('Visibility').selectOption('private');
    await author.getByRole('button', { name: 'Save changes' }).click();
    await author.getByText('Changes saved.').waitFor();

    const afterwards = await offeredTitles(reader);
    expect(afterwards).not.toContain(template);
    expect(afterwards).toContain('Business Plan');
  });
});
