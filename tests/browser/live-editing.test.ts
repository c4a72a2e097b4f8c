import { describe, expect, it } from 'vitest';
import { useBrowserHarness } from '../support/browser.js';
import {
  badgeText,
  clickIntoSubsection,
  type EditorUser,
  nodeByUuid,
  openInBoth,
  sameUserElsewhere,
  serverSubsectionText,
  signedInEditorUser,
  subsectionBody,
  textOf,
  typeInSubsection,
} from '../support/editor-page.js';

/**
 * Live plans in Chromium (workspace SPEC.md W40, docs/editor.md "Live plans"): two browser profiles with one
 * plan open on a server that co-edits, typing at once; nothing typed is lost, nothing asks to choose.
 */
const harness = useBrowserHarness({ env: { LIVE_DOCUMENTS: 'on', LIVE_DERIVE_DEBOUNCE_MS: '200' } });

/** The first paragraph's text in a subsection, without the others' caret labels drawn inside it. */
async function paragraphText(user: EditorUser, subsection: string): Promise<string> {
  return subsectionBody(user.page, subsection)
    .locator('p')
    .first()
    .evaluate((paragraph) => {
      const copy = paragraph.cloneNode(true) as HTMLElement;
      for (const caret of copy.querySelectorAll('.pw-live-caret')) caret.remove();
      return copy.textContent ?? '';
    });
}

async function twoPeople(email: string) {
  const here = await signedInEditorUser(harness, email);
  const elsewhere = await sameUserElsewhere(harness, here);
  return { here, elsewhere, ...(await openInBoth(harness, here, elsewhere)) };
}

describe('live plans in Chromium against the real server', () => {
  it('W40 two people typing in different subsections and in one paragraph converge with every character kept', async () => {
    const { here, elsewhere, uuid, first, second } = await twoPeople('live-two@example.com');
    // Carets first, then both type at once. (A click while the other types can lose its caret to the
    // remote update's selection restore: y-prosemirror issue #146, docs/editor.md "Live plans".)
    await clickIntoSubsection(here.page, first);
    await clickIntoSubsection(elsewhere.page, second);
    await Promise.all([here.page.keyboard.type('Ours here.'), elsewhere.page.keyboard.type('Theirs there.')]);
    for (const user of [here, elsewhere]) {
      await expect.poll(() => paragraphText(user, first)).toBe('Ours here.');
      await expect.poll(() => paragraphText(user, second)).toBe('Theirs there.');
    }
    // Both at the end of one paragraph at once: their keystrokes may interleave (each caret stays where
    // its owner types), but both editors show the same text and every character typed is in it.
    await clickIntoSubsection(here.page, first);
    await clickIntoSubsection(elsewhere.page, first);
    await Promise.all([here.page.keyboard.type(' Alpha'), elsewhere.page.keyboard.type(' Beta')]);
    const sorted = (text: string) => [...text].sort().join('');
    for (const user of [here, elsewhere]) {
      await expect
        .poll(async () => sorted(await paragraphText(user, first)))
        .toBe(sorted('Ours here. Alpha Beta'));
    }
    expect(await paragraphText(here, first)).toBe(await paragraphText(elsewhere, first));
    await expect.poll(() => badgeText(here.page)).toBe('Saved');
    await expect.poll(() => badgeText(elsewhere.page)).toBe('Saved');
    // Stored: the server's content has all of it, and no conflict dialog ever showed.
    await expect.poll(() => serverSubsectionText(here, uuid, second)).toBe('Theirs there.');
    await expect
      .poll(async () => sorted((await serverSubsectionText(here, uuid, first)) ?? ''))
      .toBe(sorted('Ours here. Alpha Beta'));
    expect(await here.page.getByRole('dialog').count()).toBe(0);
  });

  it("W40 a script's REST PATCH appears in both open editors without a reload, and what they typed stays", async () => {
    const { here, elsewhere, uuid, first, second } = await twoPeople('live-rest@example.com');
    await typeInSubsection(here.page, first, 'Typed in the browser.');
    await expect.poll(() => badgeText(here.page)).toBe('Saved');
    const read = await here.client.documents.get(uuid);
    const content = structuredClone(read.content);
    if (!content) throw new Error('no content');
    const target = nodeByUuid(content, second) as { content: Array<{ type: string; content?: unknown[] }> };
    const paragraph = target.content.find((node) => node.type === 'paragraph');
    if (!paragraph) throw new Error('no paragraph in the second subsection');
    paragraph.content = [{ type: 'text', text: 'Written by a script.' }];
    await here.client.documents.update(uuid, { content }, { ifMatch: read.revision ?? undefined });
    for (const user of [here, elsewhere]) {
      await expect.poll(() => paragraphText(user, second)).toBe('Written by a script.');
      await expect.poll(() => paragraphText(user, first)).toBe('Typed in the browser.');
    }
    expect(textOf(nodeByUuid((await here.client.documents.get(uuid)).content, first))).toContain(
      'Typed in the browser.',
    );
  });

  it("W40 the other person's caret shows their name; undo takes back only one's own typing", async () => {
    const { here, elsewhere, first, second } = await twoPeople('live-caret@example.com');
    await typeInSubsection(elsewhere.page, second, 'Kept.');
    await expect.poll(() => paragraphText(here, second)).toBe('Kept.');
    await here.page.locator('.pw-live-caret-label').first().waitFor();
    expect(await here.page.locator('.pw-live-caret-label').first().textContent()).not.toBe('');
    await typeInSubsection(here.page, first, 'Undone.');
    await expect.poll(() => paragraphText(elsewhere, first)).toBe('Undone.');
    await here.page.keyboard.press('Control+z');
    for (const user of [here, elsewhere]) {
      await expect.poll(() => paragraphText(user, first)).toBe('');
      await expect.poll(() => paragraphText(user, second)).toBe('Kept.');
    }
  });
});
