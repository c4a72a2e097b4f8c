import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowserHarness } from '../support/browser.js';
import {
  badgeSaved,
  badgeText,
  type EditorUser,
  openInBoth,
  REST_SAVING_SERVER,
  SAVE_DEBOUNCE_MS,
  STALE_DOCUMENT_WRITE,
  sameUserElsewhere,
  serverSubsectionText,
  signedInEditorUser,
  subsectionBody,
  typeInSubsection,
  waitForSaved,
} from '../support/editor-page.js';

const harness = useBrowserHarness(REST_SAVING_SERVER);

const CONFLICT_HEADING = 'This document was changed elsewhere';

/** The same user twice, in two browser profiles (two devices), both with the document open. */
async function twoTabs(email: string) {
  const here = await signedInEditorUser(harness, email, {
    installClock: true,
    expected: [STALE_DOCUMENT_WRITE],
    context: { permissions: ['clipboard-read', 'clipboard-write'] },
  });
  const elsewhere = await sameUserElsewhere(harness, here, {
    installClock: true,
    expected: [STALE_DOCUMENT_WRITE],
  });
  return { here, elsewhere, ...(await openInBoth(harness, here, elsewhere)) };
}

/** Jumps over the debounce and waits for the conflict dialog the save runs into. */
async function conflictAfterSave(page: Page) {
  await page.clock.runFor(SAVE_DEBOUNCE_MS + 100);
  const dialog = page.getByRole('dialog', { name: CONFLICT_HEADING });
  await dialog.waitFor();
  await expect.poll(() => badgeText(page)).toBe('Error saving');
  return dialog;
}

async function bodyText(user: EditorUser, subsection: string): Promise<string | null> {
  return subsectionBody(user.page, subsection).locator('p').first().textContent();
}

describe('two tabs editing one document in Chromium against the real server', () => {
  it('asks instead of overwriting; "Copy mine to clipboard" copies, "Reload theirs" shows theirs', async () => {
    const { here, elsewhere, uuid, first, second } = await twoTabs('two-tabs@example.com');

    await typeInSubsection(elsewhere.page, first, 'Theirs, from the other tab.');
    await waitForSaved(elsewhere.page);

    await typeInSubsection(here.page, second, 'Mine, from this tab.');
    const dialog = await conflictAfterSave(here.page);
    // Nothing was overwritten, and the dialog closes only by a choice.
    expect(await serverSubsectionText(here, uuid, first)).toBe('Theirs, from the other tab.');
    expect(await serverSubsectionText(here, uuid, second)).toBe('');
    await here.page.keyboard.press('Escape');
    expect(await dialog.isVisible()).toBe(true);

    await dialog.getByRole('button', { name: 'Copy mine to clipboard' }).click();
    await dialog.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    const copied = await here.page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain('## Problem and Solution\n\nMine, from this tab.');
    expect(copied).toContain('# Executive Summary');
    expect(copied).not.toContain('Theirs, from the other tab.');
    expect(await dialog.isVisible()).toBe(true);

    await dialog.getByRole('button', { name: 'Reload theirs' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => bodyText(here, first)).toBe('Theirs, from the other tab.');
    expect(await bodyText(here, second)).toBe('');
    expect(await badgeText(here.page)).toBe('Saved');
    // Reloading theirs wrote nothing; saving goes on from their version.
    expect(await serverSubsectionText(here, uuid, second)).toBe('');
    await typeInSubsection(here.page, second, 'Written after the reload.');
    await waitForSaved(here.page);
    expect(await serverSubsectionText(here, uuid, first)).toBe('Theirs, from the other tab.');
    expect(await serverSubsectionText(here, uuid, second)).toBe('Written after the reload.');
    expect(here.dialogs).toEqual([]);
  });

  it('"Keep mine (overwrite)" saves mine over theirs, and the other tab is asked in turn', async () => {
    const { here, elsewhere, uuid, first } = await twoTabs('keep-mine@example.com');

    await typeInSubsection(elsewhere.page, first, 'Theirs.');
    await waitForSaved(elsewhere.page);
    await typeInSubsection(here.page, first, 'Mine.');
    const dialog = await conflictAfterSave(here.page);
    expect(await serverSubsectionText(here, uuid, first)).toBe('Theirs.');

    await dialog.getByRole('button', { name: 'Keep mine (overwrite)' }).click();
    await dialog.waitFor({ state: 'detached' });
    await badgeSaved(here.page);
    expect(await serverSubsectionText(here, uuid, first)).toBe('Mine.');
    expect(await bodyText(here, first)).toBe('Mine.');

    // The other tab still holds its older version: its next save is refused and asks too.
    await typeInSubsection(elsewhere.page, first, ' More of theirs.');
    const theirDialog = await conflictAfterSave(elsewhere.page);
    expect(await serverSubsectionText(here, uuid, first)).toBe('Mine.');
    await theirDialog.getByRole('button', { name: 'Reload theirs' }).click();
    await theirDialog.waitFor({ state: 'detached' });
    await expect.poll(() => bodyText(elsewhere, first)).toBe('Mine.');
  });
});
