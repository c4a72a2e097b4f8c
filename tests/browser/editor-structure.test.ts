import type { DocumentDetail } from '@planwright/sdk';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowserHarness } from '../support/browser.js';
import {
  badgeSaved,
  badgeText,
  canvasSubsection,
  clickIntoSubsection,
  createDefaultDocument,
  type EditorUser,
  editorParts,
  openEditor,
  pasteAtCursor,
  SAVE_DEBOUNCE_MS,
  type ServerOutline,
  serverOutline,
  serverSubsectionText,
  sidebarAction,
  sidebarItem,
  signedInEditorUser,
  structureIdle,
  subsectionBody,
  typeInSubsection,
  waitForSaved,
} from '../support/editor-page.js';

const harness = useBrowserHarness();

/** `text` matched literally inside a RegExp. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function outlineOf(document: DocumentDetail): ServerOutline[] {
  return document.sections.map((section) => ({
    title: section.title,
    subsections: section.subsections.map((subsection) => subsection.title),
  }));
}

/** Section and subsection uuids of a document, by position. */
function uuids(document: DocumentDetail) {
  return document.sections.map((section) => ({
    uuid: section.uuid,
    title: section.title,
    subsections: section.subsections.map((subsection) => ({
      uuid: subsection.uuid,
      title: subsection.title,
    })),
  }));
}

/** Counts the structure writes (`…/sections/…` calls) the page sends. */
function countStructureCalls(page: Page): { readonly count: number } {
  const counter = { count: 0 };
  page.on('request', (request) => {
    if (request.method() !== 'GET' && new URL(request.url()).pathname.includes('/sections/'))
      counter.count += 1;
  });
  return counter;
}

/** The sidebar's titles, as shown, in order. */
async function sidebarTitles(page: Page): Promise<ServerOutline[]> {
  return editorParts(page).sidebar.evaluate((nav) =>
    [...nav.querySelectorAll('li[data-section-uuid]')].map((item) => ({
      title: item.querySelector('span[dir="auto"][title]')?.getAttribute('title') ?? '',
      subsections: [...item.querySelectorAll('li[data-subsection-uuid] span[dir="auto"][title]')].map(
        (span) => span.getAttribute('title') ?? '',
      ),
    })),
  );
}

/** The uuid of the one sidebar item marked `aria-current`, and the URL's selection. */
async function selected(
  page: Page,
): Promise<{ item: string | null; section: string | null; subsection: string | null }> {
  const item = await editorParts(page).sidebar.evaluate((nav) => {
    const current = nav.querySelectorAll('[aria-current="true"]');
    if (current.length !== 1) return `${current.length} items are current`;
    const row = current[0]?.closest('li');
    return row?.getAttribute('data-subsection-uuid') ?? row?.getAttribute('data-section-uuid') ?? null;
  });
  const url = new URL(page.url());
  return { item, section: url.searchParams.get('section'), subsection: url.searchParams.get('subsection') };
}

async function expectServer(user: EditorUser, uuid: string, expected: ServerOutline[]): Promise<void> {
  await expect.poll(() => serverOutline(user, uuid), { timeout: 15_000 }).toEqual(expected);
  await expect.poll(() => sidebarTitles(user.page)).toEqual(expected);
  await structureIdle(user.page);
}

describe('sections and subsections in Chromium against the real server', () => {
  it('renames, moves and deletes sections and subsections from the sidebar', async () => {
    const user = await signedInEditorUser(harness, 'sidebar@example.com', { installClock: true });
    const document = await createDefaultDocument(user);
    const { page } = user;
    await openEditor(harness, page, document.uuid);
    const calls = countStructureCalls(page);
    const outline = outlineOf(document);
    const [summary, overview, market] = outline;
    if (!summary || !overview || !market) throw new Error('the default plan has fewer than three sections');
    expect(await sidebarTitles(page)).toEqual(outline);

    // A hostile title is text: stored and shown as typed, run nowhere.
    const sectionTitle = 'Résumé — ملخص 🚀 <img src=x onerror="window.__pwned=1">';
    await sidebarAction(page, summary.title, 'Rename');
    const renameSection = page.getByRole('dialog', { name: 'Rename section' });
    await renameSection.getByLabel('Title').fill(sectionTitle);
    await page.keyboard.press('Enter');
    await renameSection.waitFor({ state: 'detached' });
    let expected: ServerOutline[] = [{ ...summary, title: sectionTitle }, ...outline.slice(1)];
    await expectServer(user, document.uuid, expected);
    await page.locator('.pw-section h1').first().filter({ hasText: sectionTitle }).waitFor();

    const [firstSub = '', secondSub = '', thirdSub = '', ...restSubs] = summary.subsections;
    await sidebarAction(page, firstSub, 'Rename');
    const renameSubsection = page.getByRole('dialog', { name: 'Rename subsection' });
    await renameSubsection.getByLabel('Title').fill('Who we are ✨');
    await renameSubsection.getByRole('button', { name: 'Save' }).click();
    await renameSubsection.waitFor({ state: 'detached' });
    expected = [
      { title: sectionTitle, subsections: ['Who we are ✨', ...summary.subsections.slice(1)] },
      ...outline.slice(1),
    ];
    await expectServer(user, document.uuid, expected);

    // An unchanged or blank rename closes without a call.
    const before = calls.count;
    await sidebarAction(page, 'Who we are ✨', 'Rename');
    await renameSubsection.getByLabel('Title').fill('   ');
    await page.keyboard.press('Enter');
    await renameSubsection.waitFor({ state: 'detached' });
    await expectServer(user, document.uuid, expected);
    expect(calls.count).toBe(before);

    await sidebarAction(page, overview.title, 'Move up');
    expected = [overview, expected[0] as ServerOutline, ...outline.slice(2)];
    await expectServer(user, document.uuid, expected);

    await sidebarAction(page, secondSub, 'Move down');
    expected = [
      overview,
      { title: sectionTitle, subsections: ['Who we are ✨', thirdSub, secondSub, ...restSubs] },
      ...outline.slice(2),
    ];
    await expectServer(user, document.uuid, expected);

    // Moves at the edges send nothing.
    const atEdges = calls.count;
    await sidebarAction(page, overview.title, 'Move up');
    await sidebarAction(page, 'Who we are ✨', 'Move up');
    await sidebarAction(page, outline.at(-1)?.title ?? '', 'Move down');
    await expectServer(user, document.uuid, expected);
    expect(calls.count).toBe(atEdges);

    // Deleting the selected section selects the one before it, replacing the history entry.
    await editorParts(page).sidebar.getByRole('button', { name: market.title, exact: true }).click();
    await expect.poll(() => selected(page)).toMatchObject({ section: document.sections[2]?.uuid });
    await sidebarAction(page, market.title, 'Delete');
    const deleteSection = page.getByRole('dialog', { name: 'Delete section?' });
    await deleteSection.getByText('This action cannot be undone.').waitFor();
    expect(
      await deleteSection
        .getByRole('button', { name: 'Cancel' })
        .evaluate((button) => button === button.ownerDocument.activeElement),
    ).toBe(true);
    await deleteSection.getByRole('button', { name: 'Delete', exact: true }).click();
    expected = expected.filter((section) => section.title !== market.title);
    await expectServer(user, document.uuid, expected);
    await expect
      .poll(() => selected(page))
      .toEqual({ item: document.sections[0]?.uuid, section: document.sections[0]?.uuid, subsection: null });

    await sidebarAction(page, thirdSub, 'Delete');
    const deleteSubsection = page.getByRole('dialog', { name: 'Delete subsection?' });
    await deleteSubsection.getByRole('button', { name: 'Delete', exact: true }).click();
    expected = [
      overview,
      { title: sectionTitle, subsections: ['Who we are ✨', secondSub, ...restSubs] },
      ...expected.slice(2),
    ];
    await expectServer(user, document.uuid, expected);

    // Keyboard drag and drop of a section: Space, ArrowDown, Space.
    await editorParts(page)
      .sidebar.getByRole('button', { name: `Reorder ${overview.title}` })
      .focus();
    // Each key waits for the drag's announcement (W18 names the sections by title) before the next.
    const announcement = () => page.locator('[role="status"][aria-live="assertive"]').textContent();
    await page.keyboard.press('Space');
    await expect.poll(announcement).toMatch(new RegExp(`^(Picked up section|Section) ${overview.title}`));
    // dnd-kit measures the list as the drag starts; an arrow that comes before that leaves the section
    // over itself (a user presses again), so the arrow is pressed again only while nothing moved.
    const overTarget = `Section ${overview.title} is over ${sectionTitle}.`;
    for (let attempt = 0; attempt < 3 && (await announcement()) !== overTarget; attempt += 1) {
      await page.keyboard.press('ArrowDown');
      await expect
        .poll(announcement)
        .toMatch(new RegExp(`^Section ${escapeRegExp(overview.title)} is over `));
      await expect
        .poll(announcement, { timeout: 2_000 })
        .toBe(overTarget)
        .catch(() => undefined);
    }
    expect(await announcement()).toBe(overTarget);
    await page.keyboard.press('Space');
    await expect.poll(announcement).toBe(`Section ${overview.title} dropped at position 2.`);
    expected = [expected[1] as ServerOutline, overview, ...expected.slice(2)];
    await expectServer(user, document.uuid, expected);

    expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(user.dialogs).toEqual([]);
  });

  it('moves and deletes subsections from the canvas', async () => {
    const user = await signedInEditorUser(harness, 'canvas@example.com', { installClock: true });
    const document = await createDefaultDocument(user);
    const { page } = user;
    await openEditor(harness, page, document.uuid);
    const [summary] = uuids(document);
    const [first, second, third, ...rest] = summary?.subsections ?? [];
    if (!summary || !first || !second || !third) throw new Error('the default plan is missing subsections');
    const others = outlineOf(document).slice(1);
    const titles = (list: { title: string }[]) => list.map((item) => item.title);

    // Text typed before a move is flushed first and moves with its subsection.
    await typeInSubsection(page, first.uuid, 'Typed before the move.');
    await canvasSubsection(page, first.uuid).getByRole('button', { name: 'Move subsection down' }).click();
    await expectServer(user, document.uuid, [
      { title: summary.title, subsections: titles([second, first, third, ...rest]) },
      ...others,
    ]);
    expect(await serverSubsectionText(user, document.uuid, first.uuid)).toBe('Typed before the move.');
    await expect
      .poll(() =>
        page
          .locator('.pw-subsection')
          .evaluateAll((items) => items.slice(0, 2).map((item) => item.getAttribute('data-subsection-uuid'))),
      )
      .toEqual([second.uuid, first.uuid]);

    const last = rest.at(-1) ?? third;
    await canvasSubsection(page, last.uuid).getByRole('button', { name: 'Move subsection up' }).click();
    const moved = [second, first, third, ...rest];
    moved.splice(moved.length - 2, 2, last, moved.at(-2) ?? third);
    await expectServer(user, document.uuid, [
      { title: summary.title, subsections: titles(moved) },
      ...others,
    ]);

    // The first subsection cannot move up.
    expect(
      await canvasSubsection(page, second.uuid)
        .getByRole('button', { name: 'Move subsection up' })
        .isDisabled(),
    ).toBe(true);

    await canvasSubsection(page, first.uuid).getByRole('button', { name: 'Delete subsection' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete subsection?' });
    await confirm.getByText(first.title).waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await canvasSubsection(page, first.uuid).getByRole('button', { name: 'Delete subsection' }).click();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    const remaining = moved.filter((item) => item.uuid !== first.uuid);
    await expectServer(user, document.uuid, [
      { title: summary.title, subsections: titles(remaining) },
      ...others,
    ]);
    await canvasSubsection(page, first.uuid).waitFor({ state: 'detached' });
    await waitForSaved(page);

    // Titles typed on the canvas rename the section and the subsection on the server.
    await page.locator(`.pw-section[data-section-uuid="${summary.uuid}"] > h1`).click();
    await page.keyboard.press('End');
    await page.keyboard.type(' 2026');
    await canvasSubsection(page, second.uuid).locator('h2').click();
    await page.keyboard.press('End');
    await page.keyboard.type(' (draft)');
    await waitForSaved(page);
    const renamed = titles(remaining).map((title) => (title === second.title ? `${title} (draft)` : title));
    await expectServer(user, document.uuid, [
      { title: `${summary.title} 2026`, subsections: renamed },
      ...others,
    ]);

    // "+ AI" makes a subsection right after the one at the cursor, then a section after the current one.
    await clickIntoSubsection(page, second.uuid);
    await page.getByRole('button', { name: '+ AI' }).click();
    await page.getByRole('menuitem', { name: 'New Subsection' }).click();
    const withNew = [...renamed];
    withNew.splice(withNew.indexOf(`${second.title} (draft)`) + 1, 0, 'New Subsection');
    await expectServer(user, document.uuid, [
      { title: `${summary.title} 2026`, subsections: withNew },
      ...others,
    ]);
    await page.getByRole('button', { name: '+ AI' }).click();
    await page.getByRole('menuitem', { name: 'New Section' }).click();
    await expectServer(user, document.uuid, [
      { title: `${summary.title} 2026`, subsections: withNew },
      { title: 'New Section', subsections: [] },
      ...others,
    ]);
  });

  it('finalizes a subsection: progress in the top bar and the documents list, and it is read-only', async () => {
    const user = await signedInEditorUser(harness, 'finalize@example.com', { installClock: true });
    const document = await createDefaultDocument(user);
    const { page } = user;
    await openEditor(harness, page, document.uuid);
    const subsection = document.sections[0]?.subsections[0]?.uuid ?? '';
    const total = document.progress.total;
    const readout = page.getByText(/^\d+ of \d+ subsection\(s\) completed$/);
    expect(await readout.textContent()).toBe(`0 of ${total} subsection(s) completed`);

    await typeInSubsection(page, subsection, 'Final words.');
    await canvasSubsection(page, subsection).getByRole('button', { name: 'Finalize subsection' }).click();
    await expect.poll(() => readout.textContent()).toBe(`1 of ${total} subsection(s) completed`);
    await expect
      .poll(async () => (await user.client.documents.get(document.uuid)).progress.finalized)
      .toBe(1);
    const { percent } = (await user.client.documents.get(document.uuid)).progress;
    expect(percent).toBeGreaterThan(0);
    await editorParts(page).workspace.locator('header').getByText(`${percent}%`, { exact: true }).waitFor();
    expect(await serverSubsectionText(user, document.uuid, subsection)).toBe('Final words.');
    await sidebarItem(page, subsection).getByText('✓').waitFor();
    await canvasSubsection(page, subsection).getByRole('button', { name: 'Continue editing' }).waitFor();
    expect(await canvasSubsection(page, subsection).getAttribute('data-finalized')).toBe('true');
    await badgeSaved(page);

    // Typing, deleting and pasting into it change nothing, in the editor or on the server.
    const paragraph = subsectionBody(page, subsection).locator('p').first();
    await paragraph.click();
    await page.keyboard.type('Sneaky edit');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await paragraph.click();
    expect(
      await pasteAtCursor(page, { html: '<h2>Pasted title</h2><p>Pasted text</p>', text: 'Pasted text' }),
    ).toBe(true);
    expect(await paragraph.textContent()).toBe('Final words.');
    expect(await subsectionBody(page, subsection).locator('p').count()).toBe(1);
    await page.clock.runFor(SAVE_DEBOUNCE_MS + 100);
    expect(await badgeText(page)).toBe('Saved');
    expect(await serverSubsectionText(user, document.uuid, subsection)).toBe('Final words.');
    expect(await serverOutline(user, document.uuid)).toEqual(outlineOf(document));

    const recent = page.getByRole('region', { name: 'Recent Documents' });
    await page.goto(`${harness.server.url}/dashboard/documents`);
    await recent.getByText(`1/${total} subsections`).waitFor();
    await recent.getByText(`${percent}%`).waitFor();

    // Continue editing makes it editable again.
    await openEditor(harness, page, document.uuid);
    await canvasSubsection(page, subsection).getByRole('button', { name: 'Continue editing' }).click();
    await expect.poll(() => readout.textContent()).toBe(`0 of ${total} subsection(s) completed`);
    await typeInSubsection(page, subsection, ' More.');
    await waitForSaved(page);
    expect(await serverSubsectionText(user, document.uuid, subsection)).toBe('Final words. More.');
    expect((await user.client.documents.get(document.uuid)).progress.finalized).toBe(0);
  });

  it('selects the section and subsection of the URL after a reload, and corrects a bad one', async () => {
    const user = await signedInEditorUser(harness, 'url@example.com');
    const document = await createDefaultDocument(user);
    const { page } = user;
    const [first, second, third] = uuids(document);
    const secondSub = second?.subsections[1];
    const thirdSub = third?.subsections[0];
    if (!first || !second || !third || !secondSub || !thirdSub)
      throw new Error('the default plan is too small');
    const context = page.getByRole('region', { name: 'AI chat' });

    await openEditor(harness, page, document.uuid, { section: second.uuid, subsection: secondSub.uuid });
    await expect
      .poll(() => selected(page))
      .toEqual({ item: secondSub.uuid, section: second.uuid, subsection: secondSub.uuid });
    await page.reload();
    await editorParts(page).editor.waitFor();
    await expect
      .poll(() => selected(page))
      .toEqual({ item: secondSub.uuid, section: second.uuid, subsection: secondSub.uuid });
    await context.getByText(`${second.title} > ${secondSub.title}`, { exact: true }).waitFor();

    // A click pushes the new section; a reload keeps it; Back returns to the previous one.
    await editorParts(page).sidebar.getByRole('button', { name: thirdSub.title, exact: true }).click();
    await expect
      .poll(() => selected(page))
      .toEqual({ item: thirdSub.uuid, section: third.uuid, subsection: thirdSub.uuid });
    await page.reload();
    await editorParts(page).editor.waitFor();
    await expect
      .poll(() => selected(page))
      .toEqual({ item: thirdSub.uuid, section: third.uuid, subsection: thirdSub.uuid });
    await page.goBack();
    await expect
      .poll(() => selected(page))
      .toEqual({ item: secondSub.uuid, section: second.uuid, subsection: secondSub.uuid });

    // An unknown section falls back to the first one, the URL corrected and other parameters kept.
    await openEditor(harness, page, document.uuid, {
      section: '<script>window.__pwned=1</script>',
      subsection: thirdSub.uuid,
      keep: 'this',
    });
    await expect
      .poll(() => selected(page))
      .toEqual({ item: first.uuid, section: first.uuid, subsection: null });
    expect(new URL(page.url()).searchParams.get('keep')).toBe('this');
    // A subsection of another section is dropped; the section stays.
    await openEditor(harness, page, document.uuid, { section: second.uuid, subsection: thirdSub.uuid });
    await expect
      .poll(() => selected(page))
      .toEqual({ item: second.uuid, section: second.uuid, subsection: null });
    await context.getByText(second.title, { exact: true }).waitFor();
    expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
  });
});
