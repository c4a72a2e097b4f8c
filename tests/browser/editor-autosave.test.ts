import type { Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowserHarness } from '../support/browser.js';
import {
  badgeSaved,
  badgeText,
  CHAT_SOCKET_DOWN,
  createDefaultDocument,
  editorParts,
  editorUrl,
  LONGEST_RETRY_MS,
  OFFLINE_BADGE,
  openEditor,
  REST_SAVING_SERVER,
  SAVE_DEBOUNCE_MS,
  SERVER_DOWN,
  STALE_DOCUMENT_WRITE,
  serverSubsectionText,
  signedInEditorUser,
  subsectionBody,
  typeInSubsection,
  waitForSaved,
} from '../support/editor-page.js';

const harness = useBrowserHarness(REST_SAVING_SERVER);

/** The first subsection of the first section of a document read from the server. */
function firstSubsection(document: { sections: { subsections: { uuid: string }[] }[] }): string {
  const uuid = document.sections[0]?.subsections[0]?.uuid;
  if (!uuid) throw new Error('the default plan has no subsection');
  return uuid;
}

describe('editor autosave in Chromium against the real server', () => {
  it('types into a subsection of the default plan, shows Saved, and keeps the text over a reload', async () => {
    const user = await signedInEditorUser(harness, 'autosave@example.com', { installClock: true });
    const document = await createDefaultDocument(user);
    const subsection = firstSubsection(document);
    const { page } = user;
    await openEditor(harness, page, document.uuid);
    expect(await badgeText(page)).toBe('Saved');

    const text = 'Acme sells bikes — دراجات 🚲 to <b>families</b>';
    await typeInSubsection(page, subsection, text);
    // Typed and not yet saved: never "Saved" over a dirty document.
    expect(await badgeText(page)).not.toBe('Saved');
    await waitForSaved(page);
    expect(await serverSubsectionText(user, document.uuid, subsection)).toBe(text);

    await page.reload();
    await editorParts(page).editor.waitFor();
    await expect.poll(() => subsectionBody(page, subsection).locator('p').first().textContent()).toBe(text);
    expect(await badgeText(page)).toBe('Saved');
    // Markup typed as text stays text.
    expect(await subsectionBody(page, subsection).locator('b').count()).toBe(0);
    expect(await page.title()).toBe('Business Plan · Editor · Planwright');
  });

  it('loses nothing typed while the server is down: saved once it is back, and restored by a reload', async () => {
    const user = await signedInEditorUser(harness, 'outage@example.com', {
      installClock: true,
      // The page-hide save can land late, after the restored draft's save left with the older revision: that
      // one then meets our own write (412), which S11 resolves without asking.
      // The chat panel's socket retries while the server is down, as it should (C50).
      expected: [SERVER_DOWN, STALE_DOCUMENT_WRITE, CHAT_SOCKET_DOWN],
    });
    const document = await createDefaultDocument(user);
    const subsection = firstSubsection(document);
    const { page } = user;
    await openEditor(harness, page, document.uuid);

    await typeInSubsection(page, subsection, 'Before.');
    await waitForSaved(page);

    await harness.server.stop();
    try {
      await page.keyboard.type(' During one.');
      await page.clock.runFor(SAVE_DEBOUNCE_MS + 100);
      await expect.poll(() => badgeText(page)).toBe(OFFLINE_BADGE);
      await page.keyboard.type(' During two.');
      await page.clock.runFor(SAVE_DEBOUNCE_MS + 100);
      // A retry may be out right now (Saving…); it fails and waits again.
      await expect.poll(() => badgeText(page)).toBe(OFFLINE_BADGE);
    } finally {
      await harness.server.restart();
    }
    // The waiting retry (at most 30 s away) carries everything typed meanwhile.
    await page.clock.runFor(LONGEST_RETRY_MS);
    await badgeSaved(page);
    expect(await serverSubsectionText(user, document.uuid, subsection)).toBe(
      'Before. During one. During two.',
    );

    // Down again, an edit, and a reload that cannot reach the server: the browser keeps the draft. The
    // page-hide save (keepalive) can outlive the page and land once the server is back, which also loses
    // nothing; it is refused here so the reload's draft is what the next visit has to restore.
    const documentSaves = (url: URL) => url.pathname.startsWith('/api/v1/documents/');
    const refuseSaves = (route: Route) =>
      route.request().method() === 'PATCH' ? route.abort('connectionrefused') : route.fallback();
    await page.context().route(documentSaves, refuseSaves);
    await harness.server.stop();
    try {
      await page.keyboard.type(' Offline draft.');
      await page.clock.runFor(SAVE_DEBOUNCE_MS + 100);
      await expect.poll(() => badgeText(page)).toBe(OFFLINE_BADGE);
      await expect(page.reload()).rejects.toThrow(/ERR_CONNECTION_REFUSED/);
    } finally {
      await harness.server.restart();
    }
    expect(await serverSubsectionText(user, document.uuid, subsection)).toBe(
      'Before. During one. During two.',
    );

    await page.context().unroute(documentSaves, refuseSaves);
    await page.goto(editorUrl(harness, document.uuid));
    const notice = page.getByText(
      /^Restored unsaved changes from \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}\.$/,
    );
    const restored = 'Before. During one. During two. Offline draft.';
    const serverHasIt = async () =>
      (await serverSubsectionText(user, document.uuid, subsection)) === restored;
    // Either the draft comes back with the notice, or the page-hide save reached the server once it was
    // back (Chromium can deliver it late, past the route above): both lose nothing.
    // Both waits are settled either way, so the one that loses the race leaves no rejection behind.
    const appeared = notice.waitFor().then(
      () => 'notice',
      () => 'nothing',
    );
    const landed = expect
      .poll(serverHasIt, { timeout: 30_000 })
      .toBe(true)
      .then(
        () => 'server',
        () => 'nothing',
      );
    expect(await Promise.race([appeared, landed])).not.toBe('nothing');
    if (await notice.isVisible()) {
      expect(await subsectionBody(page, subsection).locator('p').first().textContent()).toBe(restored);
      await waitForSaved(page);
      expect(await serverSubsectionText(user, document.uuid, subsection)).toBe(restored);
      await page.getByRole('button', { name: 'Dismiss' }).click();
      await notice.waitFor({ state: 'detached' });
    } else {
      await expect
        .poll(() => subsectionBody(page, subsection).locator('p').first().textContent())
        .toBe(restored);
    }

    // The draft was cleared by the save: a further reload shows no notice.
    await page.reload();
    await editorParts(page).editor.waitFor();
    await expect
      .poll(() => subsectionBody(page, subsection).locator('p').first().textContent())
      .toBe(restored);
    expect(await page.getByText(/^Restored unsaved changes/).count()).toBe(0);
  });
});
