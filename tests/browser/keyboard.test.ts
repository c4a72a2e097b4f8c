import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowserHarness } from '../support/browser.js';
import { chatPanel, chatReady, firstParts, suggestionBar, withNotes } from '../support/chat-page.js';
import {
  canvasSubsection,
  caretSettled,
  createDefaultDocument,
  editorParts,
  openEditor,
  signedInEditorUser,
  subsectionBody,
} from '../support/editor-page.js';
import { isFocused, pressUntilFocused } from '../support/keyboard.js';

/**
 * Issue 10 "Accessibility and the browser", the keyboard half (docs/accessibility.md A5–A9): the editor's
 * toolbar, the sections sidebar, AI proposals and the chat's and editor's menus with the keyboard alone.
 * After signing in, every step is a key press; what happened is read from the focus and the document.
 * The server's default AI provider is the offline assistant, which proposes edits built from the user's own
 * notes through the same tool a model uses, so a proposal needs no model.
 */

const harness = useBrowserHarness();

/** How long a poll waits: a first answer on a loaded 2-core CI machine can take seconds. */
const SETTLE = { timeout: 15_000 };

/** A signed-in user on the editor of a new plan, opened at its first subsection. */
async function editorAtFirstSubsection(email: string, notes?: string) {
  const user = await signedInEditorUser(harness, email, { installClock: true });
  const created = await createDefaultDocument(user);
  const parts = firstParts(created);
  const document = notes ? await withNotes(user.client, created, parts.subsection.uuid, notes) : created;
  await openEditor(harness, user.page, document.uuid, {
    section: parts.section.uuid,
    subsection: parts.subsection.uuid,
  });
  return { page: user.page, document, ...parts };
}

/**
 * Waits until the cursor is in the subsection's title: the editor moves it there after opening the
 * subsection, possibly after the focus arrived. Typing earlier would write into another place.
 */
async function caretInTitle(page: Page, subsectionUuid: string): Promise<void> {
  const title = canvasSubsection(page, subsectionUuid).locator('h2').first();
  await expect
    .poll(
      () => title.evaluate((heading) => heading.contains(document.getSelection()?.focusNode ?? null)),
      SETTLE,
    )
    .toBe(true);
  await caretSettled(page);
}

/** Whether the element is inside the visible part of its nearest scrolling ancestor. */
function isWithinScroller(element: Element): boolean {
  let scroller = element.parentElement;
  while (scroller !== null && !/(auto|scroll)/.test(getComputedStyle(scroller).overflowY)) {
    scroller = scroller.parentElement;
  }
  const view = (scroller ?? document.documentElement).getBoundingClientRect();
  const box = element.getBoundingClientRect();
  return box.top >= view.top && box.bottom <= view.bottom;
}

/** The accessible name (aria-label, else text) of the focused element. */
function focusedName(page: Page): Promise<string> {
  return page.evaluate(() => {
    const active = document.activeElement;
    return active?.getAttribute('aria-label') ?? active?.textContent?.trim() ?? '';
  });
}

describe('the editor with the keyboard alone, in Chromium against the real server', () => {
  it('A5: the toolbar is one tab stop; arrows, Home and End move in it; Bold and Heading 3 apply; Escape returns', async () => {
    const { page, subsection } = await editorAtFirstSubsection('keyboard-toolbar@example.com');
    const { editor } = editorParts(page);
    const toolbar = page.getByRole('toolbar', { name: 'Editor toolbar' });
    await pressUntilFocused(page, 'Tab', editor, true);
    // The sidebar's link put the cursor at the end of the subsection's title: into its body, then type.
    await caretInTitle(page, subsection.uuid);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.type('Keyboard words');
    await page.keyboard.press('Shift+Home');
    // ProseMirror reads a selection made by keys on the next selectionchange: wait for it.
    await caretSettled(page);

    // Shift+Tab from the text lands on the toolbar's one tab stop.
    await page.keyboard.press('Shift+Tab');
    expect(await isFocused(toolbar)).toBe(true);
    expect(await toolbar.evaluate((element) => element.querySelectorAll('[tabindex="0"]').length)).toBe(1);
    await page.keyboard.press('End');
    expect(await focusedName(page)).toBe('Indent');
    await page.keyboard.press('Home');
    expect(await focusedName(page)).toBe('+ AI');
    await pressUntilFocused(page, 'ArrowRight', toolbar.getByRole('button', { name: 'Bold', exact: true }));
    await page.keyboard.press('Enter');
    // The command takes the focus back to the text, and the typed words are bold.
    await expect.poll(() => isFocused(editor), SETTLE).toBe(true);
    await expect
      .poll(() => subsectionBody(page, subsection.uuid).locator('strong').allTextContents(), SETTLE)
      .toEqual(['Keyboard words']);

    // Alt+F10 goes to the toolbar, on the control used last; Escape goes back to the text.
    await page.keyboard.press('Alt+F10');
    expect(await focusedName(page)).toBe('Bold');
    await page.keyboard.press('Escape');
    await expect.poll(() => isFocused(editor), SETTLE).toBe(true);

    // The block type: Shift+Tab, ArrowLeft to the select, and a letter picks its first option so named
    // (a closed select's ArrowDown is the platform's: on Linux Chromium it does not change the value).
    await page.keyboard.press('Shift+Tab');
    await pressUntilFocused(page, 'ArrowLeft', toolbar.getByRole('combobox', { name: 'Block type' }));
    await page.keyboard.press('h');
    await expect
      .poll(() => subsectionBody(page, subsection.uuid).locator('h3').allTextContents(), SETTLE)
      .toEqual(['Keyboard words']);
    await expect.poll(() => isFocused(editor), SETTLE).toBe(true);
  });

  it('A6: the sections sidebar opens a subsection by keyboard, and the cursor follows it there', async () => {
    const { page, next } = await editorAtFirstSubsection('keyboard-sidebar@example.com');
    const { sidebar, editor } = editorParts(page);
    const item = sidebar.getByRole('button', { name: next.title, exact: true });
    await pressUntilFocused(page, 'Tab', item);
    await page.keyboard.press('Enter');
    await expect.poll(() => item.getAttribute('aria-current'), SETTLE).toBe('true');
    expect(new URL(page.url()).searchParams.get('subsection')).toBe(next.uuid);
    expect(await isFocused(item)).toBe(true);
    // On into the text: the cursor waits at the end of the opened subsection's title.
    await pressUntilFocused(page, 'Tab', editor, true);
    // The editor moves the cursor there after the selection changes: type only once it has.
    await caretInTitle(page, next.uuid);
    await page.keyboard.type(' by keyboard');
    await expect
      .poll(() => canvasSubsection(page, next.uuid).locator('h2').first().textContent(), SETTLE)
      .toBe(`${next.title} by keyboard`);
  });

  it('A9: two skip links reach the text in four presses from a fresh load, with the cursor where it was', async () => {
    // A late subsection, so opening it scrolls the canvas: Chromium 150 moved the keyboard's starting point
    // to an element scrolled with scrollIntoView, and the first Tab went to that subsection's Move buttons.
    const user = await signedInEditorUser(harness, 'keyboard-skip@example.com', { installClock: true });
    const document = await createDefaultDocument(user);
    const section = document.sections.at(-1);
    const subsection = section?.subsections.at(-1);
    if (!section || !subsection) throw new Error('the default plan has no last subsection');
    const { page } = user;
    const { editor } = await openEditor(harness, page, document.uuid, {
      section: section.uuid,
      subsection: subsection.uuid,
    });
    const title = canvasSubsection(page, subsection.uuid).locator('h2').first();
    // The opened subsection is shown at the top of the canvas.
    await expect.poll(() => title.evaluate(isWithinScroller), SETTLE).toBe(true);
    const skipToEditor = page.getByRole('button', { name: 'Skip to editor' });
    await skipToEditor.waitFor({ state: 'attached' });
    // From the page's start, as after a load: nothing has the focus.
    expect(await page.evaluate(() => window.document.activeElement === window.document.body)).toBe(true);
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(await isFocused(skipToEditor)).toBe(true);
    await page.keyboard.press('Enter');
    await expect
      .poll(() => editor.evaluate((text) => text === window.document.activeElement), SETTLE)
      .toBe(true);
    // The opened subsection put the cursor at the end of its title; the link keeps it there.
    await caretInTitle(page, subsection.uuid);
    await page.keyboard.type(' skipped');
    await expect.poll(() => title.textContent(), SETTLE).toBe(`${subsection.title} skipped`);
  });

  it('A7: a proposal card takes the keyboard to its suggestions in the text; Enter accepts; the text keeps the focus', async () => {
    const { page, subsection } = await editorAtFirstSubsection(
      'keyboard-proposal@example.com',
      'Bakery in Berlin. Three staff. Opening in May 2025.',
    );
    await chatReady(page);
    const chat = chatPanel(page);
    // The chat panel ends the page: Shift+Tab from the page's start goes round to it.
    await pressUntilFocused(page, 'Shift+Tab', chat.input);
    await page.keyboard.type('Turn these notes into bullet points');
    await page.keyboard.press('Enter');
    const card = chat.cards.first();
    await expect.poll(() => card.getAttribute('data-status'), SETTLE).toBe('pending');

    await pressUntilFocused(page, 'Shift+Tab', card);
    await page.keyboard.press('Enter');
    const bar = suggestionBar(page);
    const accept = bar.getByRole('button', { name: 'Accept', exact: true });
    await expect.poll(() => isFocused(accept), SETTLE).toBe(true);
    await page.keyboard.press('Enter');
    await bar.waitFor({ state: 'detached' });
    // The notes became a list of the user's own words (the offline assistant never adds its own).
    await expect.poll(() => subsectionBody(page, subsection.uuid).locator('li').count(), SETTLE).toBe(3);
    expect(await subsectionBody(page, subsection.uuid).textContent()).toContain('Opening in May 2025');
    await expect.poll(() => card.getAttribute('data-status'), SETTLE).toBe('accepted');
    // The bar went with the last suggestion: the focus is back in the text, not lost on the page.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.classList.contains('ProseMirror')))
      .toBe(true);
  });

  it('A8: the chat history and AI actions menus open with Enter and ArrowDown and close with Escape', async () => {
    const { page, subsection } = await editorAtFirstSubsection('keyboard-menus@example.com');
    await chatReady(page);
    const history = chatPanel(page).panel.getByRole('button', { name: 'Chat history' });
    await pressUntilFocused(page, 'Shift+Tab', history);
    for (const key of ['Enter', 'ArrowDown']) {
      await page.keyboard.press(key);
      const menu = page.getByRole('menu', { name: 'Chat history' });
      await menu.waitFor();
      // The menu takes the focus in an effect after it is drawn: poll, as a slow machine may be between.
      await expect.poll(() => focusedName(page), SETTLE).toBe('New Chat');
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'detached' });
      await expect.poll(() => isFocused(history), SETTLE).toBe(true);
    }

    // AI actions: select words in the text; Tab goes on to the bubble over the selection.
    const { editor } = editorParts(page);
    await pressUntilFocused(page, 'Shift+Tab', editor, true);
    await caretInTitle(page, subsection.uuid);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.type('Words to transform');
    await page.keyboard.press('Shift+Home');
    // ProseMirror reads a selection made by keys on the next selectionchange: wait for it.
    await caretSettled(page);
    const actions = page.getByRole('toolbar', { name: 'Selection formatting' }).getByRole('button', {
      name: 'AI actions',
    });
    await actions.waitFor();
    // The first Tab goes into the bubble, not to the Move buttons drawn on the canvas (E23).
    await page.keyboard.press('Tab');
    await expect.poll(() => focusedName(page), SETTLE).toBe('Bold');
    await pressUntilFocused(page, 'Tab', actions);
    for (const key of ['Enter', 'ArrowDown']) {
      await page.keyboard.press(key);
      const menu = page.getByRole('menu', { name: 'AI actions' });
      await menu.waitFor();
      const first = page.getByRole('menuitem').first();
      await expect.poll(() => first.evaluate((item) => item === document.activeElement), SETTLE).toBe(true);
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'detached' });
      await expect.poll(() => isFocused(actions), SETTLE).toBe(true);
    }
  });
});
