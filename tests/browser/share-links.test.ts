import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe.js';
import { useBrowserHarness } from '../support/browser.js';
import {
  badgeSaved,
  createDefaultDocument,
  openEditor,
  signedInEditorUser,
  typeInSubsection,
} from '../support/editor-page.js';

/**
 * Share links in Chromium against the real server (docs/versions.md "Share links"): the owner makes a link in the
 * Share dialog; a reader with no account opens it in a fresh profile, reads, downloads the PDF; the owner sees
 * the view and the time read; once the owner turns the link off, the reader's reload and next navigation answer 410.
 */
// The link's URL is made from PUBLIC_URL: the server's own address here.
const harness = useBrowserHarness({ ownPublicUrl: true });

/** The 410 of the reader page after the link is turned off: the test asks for it. */
const GONE = { text: /status of 410/, url: /\/s\// };

describe('share links in Chromium against the real server', () => {
  it('SLB1 make a link, read it without an account, download the PDF, see the reading counted, turn it off → 410', async () => {
    const owner = await signedInEditorUser(harness, 'share-owner@example.com');
    const plan = await createDefaultDocument(owner);
    const [section, second] = plan.sections;
    const first = section?.subsections[0];
    const draft = section?.subsections[1] ?? second?.subsections[0];
    if (!section || !first || !draft) throw new Error('the default blueprint has two subsections');
    const page = owner.page;
    await openEditor(harness, page, plan.uuid);
    await typeInSubsection(page, first.uuid, 'We bake sourdough for cafés.');
    await typeInSubsection(page, draft.uuid, 'Unfinished numbers.');
    await badgeSaved(page);
    await owner.client.documents.sections.subsections.update(plan.uuid, section.uuid, first.uuid, {
      finalized: true,
    });

    await page.getByRole('button', { name: 'File', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Share…' }).click();
    const dialog = page.getByRole('dialog', { name: /^Share “/ });
    const links = dialog.getByRole('region', { name: 'Links for readers without an account' });
    await links.getByRole('textbox', { name: 'For (optional)' }).fill('Acme Ventures');
    await links.getByRole('checkbox', { name: 'Readers may download it as PDF and Word' }).check();
    await links.getByRole('button', { name: 'Create link' }).click();
    await dialog.getByText('Link created. Copy it now: it is not shown again.').waitFor();
    const url = await links.getByRole('textbox', { name: 'New link' }).inputValue();
    expect(url).toMatch(new RegExp(`^${harness.server.url}/s/[A-Za-z0-9_-]{43}$`));
    await links.getByText('Not read yet').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // A reader with no account, in a profile of their own; their clock is Playwright's, so time read is jumped.
    const reader = await harness.openPage(
      { viewport: { width: 390, height: 844 } },
      { installClock: true, expected: [GONE] },
    );
    const opened = await reader.goto(url);
    expect(opened?.status()).toBe(200);
    expect(await reader.locator('.pw-title-page h1').textContent()).toBe(plan.title || 'Untitled Document');
    await reader.getByText('We bake sourdough for cafés.').waitFor();
    expect(await reader.getByText('Unfinished numbers.').count()).toBe(0);
    expect((await reader.context().cookies()).map((cookie) => cookie.name)).toEqual(['pw_reader']);
    expect(await seriousViolations(reader)).toEqual([]);
    // Thirty seconds on the first section, reached from the contents: the page reports every 15 s.
    await reader
      .getByRole('navigation', { name: 'Contents' })
      .getByRole('link', { name: section.title })
      .click();
    await reader.clock.runFor(31_000);

    const download = reader.waitForEvent('download');
    await reader.getByRole('link', { name: 'Download PDF' }).click();
    const file = await (await download).path();
    expect((await readFile(file)).subarray(0, 5).toString()).toBe('%PDF-');

    await expect
      .poll(async () => (await owner.client.shareLinks.list(plan.uuid))[0]?.views, { timeout: 10_000 })
      .toMatchObject({
        total: 1,
        unique_visitors: 1,
        sections: [{ uuid: section.uuid, title: section.title, seconds: expect.any(Number) }],
      });
    const [counted] = await owner.client.shareLinks.list(plan.uuid);
    expect(counted?.views.sections[0]?.seconds).toBeGreaterThanOrEqual(30);
    expect(counted?.views.sections[0]?.seconds).toBeLessThanOrEqual(32);

    // The owner sees it, and turns the link off.
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByRole('button', { name: 'File', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Share…' }).click();
    await links.getByText('1 view by 1 reader, last read').waitFor();
    await links.getByRole('button', { name: 'Turn off Acme Ventures' }).click();
    await dialog.getByText('Acme Ventures is turned off: its page now says so.').waitFor();
    await links.getByText('Turned off').waitFor();

    // The reader's open page: a reload and its next navigation both answer 410.
    const reloaded = await reader.reload();
    expect(reloaded?.status()).toBe(410);
    await reader.getByRole('heading', { name: 'This link has been turned off' }).waitFor();
    expect(await reader.getByText('We bake sourdough').count()).toBe(0);
    const next = await reader.goto(`${url}/download/pdf`);
    expect(next?.status()).toBe(410);
  });
});
