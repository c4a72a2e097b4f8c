import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type AxeViolation, seriousViolations } from '../support/axe.js';
import { useBrowserHarness } from '../support/browser.js';
import { chatPanel, chatReady, firstParts } from '../support/chat-page.js';
import {
  createDefaultDocument,
  editorParts,
  openEditor,
  signedInEditorUser,
} from '../support/editor-page.js';
import { isFocused, pressUntilFocused } from '../support/keyboard.js';

/**
 * Issue 10 "Accessibility and the browser" (docs/accessibility.md A1–A4): axe-core
 * on every page in both themes, every dialog by keyboard, the editor without a mouse.
 */

const harness = useBrowserHarness();

/** Both themes, by the system preference the app follows (spec 000 §4). */
const THEMES = [
  { colorScheme: 'light', theme: 'caramellatte' },
  { colorScheme: 'dark', theme: 'coffee' },
] as const;

/** Waits until a page has drawn its heading and no spinner is left. */
async function settled(page: Page): Promise<void> {
  await page.locator('h1, h2').first().waitFor();
  await page.locator('.loading').first().waitFor({ state: 'detached', timeout: 10_000 });
}

/** Visits `path` and answers its serious/critical violations keyed by the page and theme. */
async function auditPath(page: Page, path: string): Promise<[string, AxeViolation[]]> {
  await page.goto(`${harness.server.url}${path}`);
  await settled(page);
  return [path, await seriousViolations(page)];
}

/** The violations of every audited state, with only the states that have some. */
function failing(results: [string, AxeViolation[]][]): Record<string, AxeViolation[]> {
  return Object.fromEntries(results.filter(([, violations]) => violations.length > 0));
}

const PUBLIC_PATHS = [
  '/',
  '/pricing',
  '/about',
  '/contact',
  '/web/terms',
  '/web/privacy',
  '/account/signin',
  '/account/signup',
  '/account/password/reset',
  '/no-such-page',
];

/** A signed-in user with a document, a blueprint and an organisation to show. */
async function preparedUser(email: string, colorScheme: 'light' | 'dark') {
  const user = await signedInEditorUser(harness, email, { installClock: true, context: { colorScheme } });
  const document = await createDefaultDocument(user);
  const blueprint = await user.client.blueprints.create({ title: 'Audit blueprint' });
  await user.client.organizations.create({ name: 'Audit organisation' });
  return { user, document, blueprint };
}

describe('accessibility in Chromium against the real server (axe-core, both themes)', () => {
  for (const { colorScheme, theme } of THEMES) {
    it(`A1: every public page has no serious or critical axe violation in ${theme}`, async () => {
      const page = await harness.openPage({ colorScheme });
      const results: [string, AxeViolation[]][] = [];
      for (const path of PUBLIC_PATHS) {
        results.push(await auditPath(page, path));
        expect(await page.locator('html').getAttribute('data-theme')).toBe(theme);
      }
      expect(failing(results)).toEqual({});
    });

    it(`A1: every signed-in page, with its dialogs open, has no serious or critical axe violation in ${theme}`, async () => {
      const { user, document, blueprint } = await preparedUser(`audit-${theme}@example.com`, colorScheme);
      const { page } = user;
      const results: [string, AxeViolation[]][] = [];
      for (const path of [
        '/dashboard',
        '/dashboard/documents',
        `/dashboard/documents/${document.uuid}`,
        '/dashboard/blueprints',
        `/dashboard/blueprints/${blueprint.uuid}`,
        '/dashboard/profile',
        '/dashboard/team',
      ]) {
        results.push(await auditPath(page, path));
      }
      expect(await page.locator('html').getAttribute('data-theme')).toBe(theme);

      // Profile › Security with two-factor being set up (the QR code) and the lists loaded.
      await page.goto(`${harness.server.url}/dashboard/profile`);
      const twoFactor = page.getByRole('region', { name: 'Two-factor authentication' });
      await twoFactor.getByRole('button', { name: 'Set up two-factor authentication' }).click();
      await twoFactor.getByRole('img', { name: /QR code/ }).waitFor();
      await page.getByText('This device', { exact: true }).waitFor();
      results.push(['profile security, setting up two-factor', await seriousViolations(page)]);

      await page.goto(`${harness.server.url}/dashboard/documents`);
      await page.getByRole('button', { name: 'New Document' }).click();
      const create = page.getByRole('dialog', { name: 'Select a Blueprint' });
      await create.getByRole('radio').first().waitFor();
      results.push(['new document dialog', await seriousViolations(page)]);
      await page.keyboard.press('Escape');
      await create.waitFor({ state: 'detached' });

      const parts = firstParts(document);
      await openEditor(harness, page, document.uuid, {
        section: parts.section.uuid,
        subsection: parts.subsection.uuid,
      });
      await chatReady(page);
      results.push(['editor with the chat panel', await seriousViolations(page)]);
      await page.goto(`${harness.server.url}/dashboard/blueprints/${blueprint.uuid}/edit`);
      await editorParts(page).editor.waitFor();
      results.push(['blueprint editor', await seriousViolations(page)]);
      expect(failing(results)).toEqual({});
    });
  }

  it('A3, A4: dialogs open and close by keyboard; the editor sidebar, text and chat work without a mouse', async () => {
    const { user, document } = await preparedUser('keyboard@example.com', 'dark');
    const { page } = user;
    await page.goto(`${harness.server.url}/dashboard/documents`);
    const newDocument = page.getByRole('button', { name: 'New Document' });
    await pressUntilFocused(page, 'Tab', newDocument);
    await page.keyboard.press('Enter');
    const create = page.getByRole('dialog', { name: 'Select a Blueprint' });
    await create.getByRole('radio').first().waitFor();
    await page.keyboard.press('Escape');
    await create.waitFor({ state: 'detached' });
    expect(await isFocused(newDocument)).toBe(true);

    const parts = firstParts(document);
    await openEditor(harness, page, document.uuid);
    const { sidebar } = editorParts(page);
    // Sidebar: reach a subsection's actions menu with Tab, open it with Enter, leave it with Escape.
    const actions = sidebar.getByRole('button', { name: `Actions for ${parts.next.title}`, exact: true });
    await pressUntilFocused(page, 'Tab', actions);
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem').first().waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('menuitem').first().waitFor({ state: 'detached' });
    // The editor's text is reachable by Tab (the toolbar's controls are disabled until it has a selection).
    await pressUntilFocused(page, 'Tab', editorParts(page).editor);
    // Chat: type and send with the keyboard only.
    await chatReady(page);
    const chat = chatPanel(page);
    await pressUntilFocused(page, 'Tab', chat.input);
    await page.keyboard.type('Hello from the keyboard');
    await page.keyboard.press('Enter');
    await expect.poll(() => chat.log.textContent()).toContain('Hello from the keyboard');
  });
});
