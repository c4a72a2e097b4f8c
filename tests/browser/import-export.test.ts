import { readFile } from 'node:fs/promises';
import { outlineOf } from '@planwright/sdk';
import type { Download, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowserHarness } from '../support/browser.js';
import { corpusPath } from '../support/corpus.js';
import { createDefaultDocument, openEditor, signedInEditorUser } from '../support/editor-page.js';

const harness = useBrowserHarness();

/** The sidebar's section titles, in order. */
async function sidebarSections(page: Page): Promise<string[]> {
  return page
    .getByRole('navigation', { name: 'Sections' })
    .locator('li[data-section-uuid] > div span[dir="auto"]')
    .allTextContents();
}

/** Runs `start` and returns the download it caused, with its bytes. */
async function downloadOf(
  page: Page,
  start: () => Promise<void>,
): Promise<{ download: Download; bytes: Buffer }> {
  const waiting = page.waitForEvent('download');
  await start();
  const download = await waiting;
  const path = await download.path();
  return { download, bytes: await readFile(path) };
}

describe('import and export in Chromium against the real server', () => {
  it('imports a .docx (merge) and a .md (replace), then exports .md and .docx downloads', async () => {
    const user = await signedInEditorUser(harness, 'ida.import@example.com');
    const { page } = user;
    const created = await createDefaultDocument(user);
    const before = outlineOf(created.content).sections.map((section) => section.title);
    const parts = await openEditor(harness, page, created.uuid);

    // File › Import… opens the browser's file chooser for .docx.
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'File', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Import…' }).click();
    await (await chooser).setFiles(corpusPath('docx/pandoc-headers.docx'));
    const dialog = page.getByRole('dialog', { name: 'Import document' });
    await expect.poll(() => dialog.getByTestId('import-file-name').textContent()).toBe('pandoc-headers.docx');
    // A modal locks the page's scroll on :root only: daisyUI's lock properties do not inherit, so a dialog
    // opening or closing does not restyle every element of the plan (src/index.css).
    const lock = () =>
      page.evaluate(() => ({
        root: getComputedStyle(document.documentElement).overflow,
        inherited: getComputedStyle(document.body).getPropertyValue('--page-overflow').trim(),
      }));
    expect(await lock()).toEqual({ root: 'hidden', inherited: '' });
    expect(await dialog.getByRole('checkbox', { name: /Replace document/ }).isChecked()).toBe(false);
    await dialog.getByRole('button', { name: 'Import' }).click();

    // Merge: the document keeps its sections and gains the file's, titled "(Imported) …".
    await parts.sidebar.getByRole('button', { name: '(Imported) A Test of Headers', exact: true }).waitFor();
    await parts.sidebar.getByRole('button', { name: '(Imported) Second Level', exact: true }).waitFor();
    await page.getByTestId('import-report').waitFor();
    expect(await parts.status.textContent()).toBe('Saved');
    expect((await lock()).root).not.toBe('hidden');
    const merged = await user.client.documents.get(created.uuid);
    const mergedTitles = outlineOf(merged.content).sections.map((section) => section.title);
    expect(mergedTitles.slice(0, before.length)).toEqual(before);
    expect(mergedTitles).toContain('(Imported) A Test of Headers');
    expect(await parts.editor.textContent()).toContain('Some more plain text.');

    // The header's Import also takes Markdown; Replace asks first, then swaps the whole content.
    const markdownChooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await (await markdownChooser).setFiles({
      name: 'launch.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from('# Launch plan\n\nShip in **May**.\n\n## Channels\n\n- Press\n- Partners\n'),
    });
    const replaceDialog = page.getByRole('dialog', { name: 'Import document' });
    await replaceDialog.getByRole('checkbox', { name: /Replace document/ }).check();
    await replaceDialog.getByRole('button', { name: 'Import' }).click();
    const confirm = page.getByRole('dialog', { name: 'Replace document?' });
    await confirm.getByText('Replace the whole document with the imported file?', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Replace' }).click();
    await parts.sidebar.getByRole('button', { name: 'Launch plan', exact: true }).waitFor();
    await expect.poll(() => sidebarSections(page)).toEqual(['Launch plan']);
    const replaced = await user.client.documents.get(created.uuid);
    expect(replaced.uuid).toBe(created.uuid);
    expect(outlineOf(replaced.content).sections.map((section) => section.title)).toEqual(['Launch plan']);

    // Export as .md: the server's Markdown of what is on screen, named from the title.
    const markdown = await downloadOf(page, async () => {
      await page.getByRole('button', { name: 'File', exact: true }).click();
      await page.getByRole('menuitem', { name: 'Export as .md' }).click();
    });
    expect(markdown.download.suggestedFilename()).toBe(`${created.title}.md`);
    const text = markdown.bytes.toString('utf8');
    expect(text).toContain('# Launch plan');
    expect(text).toContain('## Channels');
    expect(text).toContain('**May**');

    // Export as .docx through the header's Export menu: the conversion service with its token.
    const docx = await downloadOf(page, async () => {
      await page.getByRole('button', { name: 'Export', exact: true }).click();
      await page.getByRole('menuitem', { name: 'Export as .docx' }).click();
    });
    expect(docx.download.suggestedFilename()).toBe(`${created.title}.docx`);
    expect(docx.bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    expect(docx.bytes.includes(Buffer.from('word/document.xml'))).toBe(true);
    await page.getByRole('dialog', { name: 'Exporting document' }).waitFor({ state: 'detached' });
    expect(user.dialogs).toEqual([]);
  });
});
