import { readFile } from 'node:fs/promises';
import { unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe.js';
import { useBrowserHarness } from '../support/browser.js';
import {
  badgeSaved,
  createDefaultDocument,
  openEditor,
  signedInEditorUser,
  subsectionBody,
  typeInSubsection,
} from '../support/editor-page.js';

/**
 * Versions in Chromium against the real server (docs/versions.md): name a version, change the plan, read the
 * version as it was, restore it into the open editor, and undo the restore by restoring what it kept.
 */
const harness = useBrowserHarness();

async function openHistory(page: Page) {
  await page.getByRole('button', { name: 'File', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Version history…' }).click();
  const dialog = page.getByRole('dialog', { name: /^Versions of “/ });
  await dialog.getByRole('button', { name: 'Close', exact: true }).waitFor();
  return dialog;
}

describe('versions in Chromium against the real server', () => {
  it('VH1 name a version, change the plan, read the version, restore it into the open editor, and undo the restore', async () => {
    const owner = await signedInEditorUser(harness, 'versions-owner@example.com');
    const plan = await createDefaultDocument(owner);
    const first = plan.sections[0]?.subsections[0];
    if (!first) throw new Error('no subsection');
    const page = owner.page;
    await openEditor(harness, page, plan.uuid);
    await typeInSubsection(page, first.uuid, 'Sent to the bank.');
    await badgeSaved(page);

    let history = await openHistory(page);
    await history.getByRole('textbox', { name: 'Name this version' }).fill('Sent to bank, v3');
    await history.getByRole('button', { name: 'Save version' }).click();
    await history.getByText('Version “Sent to bank, v3” saved.').waitFor();
    await history.getByRole('button', { name: 'View “Sent to bank, v3”' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await history.getByRole('button', { name: 'Close', exact: true }).click();

    const paragraph = subsectionBody(page, first.uuid).locator('p').first();
    await paragraph.click();
    await page.keyboard.press('End');
    await page.keyboard.type(' Then rewritten.');
    await badgeSaved(page);

    history = await openHistory(page);
    await history.getByRole('button', { name: 'View “Sent to bank, v3”' }).click();
    const view = history.getByRole('region', { name: /^Viewing “Sent to bank, v3”/ });
    await view.getByText('Sent to the bank.', { exact: true }).waitFor();
    expect(await view.getByText('Then rewritten.').count()).toBe(0);
    await history.getByRole('button', { name: 'Back to the list' }).click();

    // Compared with now: only the changed subsection, the added words marked as added.
    await history.getByRole('button', { name: 'Compare “Sent to bank, v3” with now' }).click();
    const comparison = history.getByRole('region', { name: 'Changes from “Sent to bank, v3” to now' });
    await comparison.getByText('Subsections: 1 changed, 0 added, 0 removed.').waitFor();
    await comparison.getByRole('heading', { name: first.title }).waitFor();
    // The run itself, after the words screen readers hear first.
    expect(await comparison.locator('ins').textContent()).toBe('added:  Then rewritten.');
    expect(await comparison.locator('del').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await history.getByRole('button', { name: 'Back to the list' }).click();

    await history.getByRole('button', { name: 'Restore “Sent to bank, v3”' }).click();
    await history
      .getByRole('group', { name: 'Restore “Sent to bank, v3”' })
      .getByRole('button', { name: 'Restore' })
      .click();
    await history.getByText('“Sent to bank, v3” restored.', { exact: false }).waitFor();
    // The open editor gets the restore as a change, without a reload.
    await expect.poll(() => paragraph.textContent()).toBe('Sent to the bank.');

    // Undo: the plan as it was before the restore was kept; restoring it brings the rewrite back.
    await history.getByRole('button', { name: 'Restore before a restore' }).first().click();
    await history
      .getByRole('group', { name: 'Restore before a restore' })
      .getByRole('button', { name: 'Restore' })
      .click();
    await expect.poll(() => paragraph.textContent()).toBe('Sent to the bank. Then rewritten.');
    await history.getByRole('button', { name: 'Close', exact: true }).click();
    await badgeSaved(page);
  });

  it('VH2 compare two versions with each other, inline and side by side, and download the comparison for Word', async () => {
    const owner = await signedInEditorUser(harness, 'versions-compare@example.com');
    const plan = await createDefaultDocument(owner);
    const first = plan.sections[0]?.subsections[0];
    if (!first) throw new Error('no subsection');
    const page = owner.page;
    await openEditor(harness, page, plan.uuid);
    await typeInSubsection(page, first.uuid, 'One.');
    await badgeSaved(page);
    await owner.client.versions.create(plan.uuid, { name: 'v1' });
    const paragraph = subsectionBody(page, first.uuid).locator('p').first();
    await paragraph.click();
    await page.keyboard.press('End');
    await page.keyboard.type(' Two.');
    await badgeSaved(page);
    const v2 = await owner.client.versions.create(plan.uuid, { name: 'v2' });
    await page.keyboard.type(' Three.');
    await badgeSaved(page);

    const history = await openHistory(page);
    await history.getByRole('button', { name: 'Compare “v1” with now' }).click();
    await history.getByRole('combobox', { name: 'Compare with' }).selectOption(v2.id);
    const comparison = history.getByRole('region', { name: 'Changes from “v1” to “v2”' });
    await expect.poll(() => comparison.locator('ins').allTextContents()).toEqual(['added:  Two.']);
    expect(await comparison.getByText('Three.').count()).toBe(0);

    await comparison.getByRole('button', { name: 'Side by side' }).click();
    expect(await comparison.getByRole('button', { name: 'Side by side' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    const before = comparison.getByText('Before', { exact: true }).locator('..');
    const after = comparison.getByText('After', { exact: true }).locator('..');
    expect(await before.locator('ins').count()).toBe(0);
    expect((await before.textContent())?.includes('One.')).toBe(true);
    expect(await after.locator('ins').allTextContents()).toEqual(['added:  Two.']);
    expect(await seriousViolations(page)).toEqual([]);

    const download = page.waitForEvent('download');
    await comparison.getByRole('button', { name: 'Download for Word' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/ - changes\.docx$/);
    const xml = new TextDecoder().decode(unzipSync(await readFile(await file.path()))['word/document.xml']);
    expect(xml).toMatch(/<w:ins [^>]*>[\s\S]*Two\.[\s\S]*<\/w:ins>/);
    expect(xml).not.toContain('Three.');
  });
});
