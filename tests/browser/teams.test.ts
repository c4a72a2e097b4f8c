import { readOutbox } from '@planwright/server';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe.js';
import { ALLAUTH_PROTOCOL_ANSWERS, useBrowserHarness } from '../support/browser.js';
import { linkFromOutbox, signIn, TEST_PASSWORD } from '../support/browser-accounts.js';
import {
  badgeSaved,
  createDefaultDocument,
  editorParts,
  failedAnswer,
  openEditor,
  sameUserElsewhere,
  sidebarItem,
  signedInEditorUser,
  subsectionBody,
  typeInSubsection,
} from '../support/editor-page.js';

/**
 * Teams in Chromium against the real server (docs/teams.md): the owner invites an advisor from the Share dialog;
 * the advisor signs up from the e-mail's link and lands in the plan read-only; the owner removes them and the
 * advisor's open page loses the plan at once.
 */
const harness = useBrowserHarness();

/** The Share dialog, opened from the workspace header. */
async function openShareDialog(page: Page) {
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /^Share “/ });
  await dialog.getByRole('heading', { name: 'People with access' }).waitFor();
  return dialog;
}

describe('teams in Chromium against the real server', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`TM1 (${colorScheme}) an owner invites an advisor who signs up from the e-mail link, reads the plan without changing it, and is removed live`, async () => {
      const owner = await signedInEditorUser(harness, `teams-owner-${colorScheme}@example.com`, {
        context: { colorScheme },
        // The second invitation of one address is refused (409), and says so.
        expected: [failedAnswer(409, /\/invitations\/$/)],
      });
      const plan = await createDefaultDocument(owner);
      await openEditor(harness, owner.page, plan.uuid);
      const share = await openShareDialog(owner.page);
      const advisorEmail = `advisor-${colorScheme}@example.com`;
      await share.getByLabel('E-mail address').fill(advisorEmail);
      await share.getByLabel('Role', { exact: true }).selectOption('commenter');
      await share.getByRole('button', { name: 'Send invitation' }).click();
      await share.getByText(`Invitation sent to ${advisorEmail}.`).waitFor();
      await share.getByRole('heading', { name: 'Pending invitations' }).waitFor();
      await share.getByText(advisorEmail, { exact: true }).waitFor();
      expect(await seriousViolations(owner.page)).toEqual([]);
      // Inviting the same address again says why not, in the server's words.
      await share.getByLabel('E-mail address').fill(advisorEmail);
      await share.getByRole('button', { name: 'Send invitation' }).click();
      await share
        .getByText(`${advisorEmail} already has a pending invitation to this document. Resend it instead.`)
        .waitFor();
      await share.getByRole('button', { name: 'Close' }).click();

      // The advisor opens the e-mail's link with no account yet, signs up, confirms the address, signs in.
      const advisor = await harness.openPage(
        { colorScheme },
        // Removed, their page reads the plan again and is told it is gone (404).
        { expected: [ALLAUTH_PROTOCOL_ANSWERS, failedAnswer(404, /\/api\/v1\/documents\/[^/]+\/$/)] },
      );
      await advisor.goto(await linkFromOutbox(harness.server, advisorEmail, '/invitations/'));
      const invitation = advisor.getByRole('region', { name: 'You are invited' });
      await invitation.waitFor();
      expect(await seriousViolations(advisor)).toEqual([]);
      await invitation.getByRole('link', { name: 'Sign up' }).click();
      await advisor.getByLabel('Email', { exact: true }).fill(advisorEmail);
      await advisor.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
      await advisor.getByLabel('Confirm password').fill(TEST_PASSWORD);
      await advisor.getByRole('checkbox').check();
      await advisor.getByRole('button', { name: 'Sign Up' }).click();
      await advisor.getByRole('heading', { name: 'Check your email' }).waitFor();
      await advisor.goto(await linkFromOutbox(harness.server, advisorEmail, '/account/verify-email/'));
      await advisor.getByRole('heading', { name: 'Email verified' }).waitFor();
      await advisor.goto(`${harness.server.url}/account/signin`);
      await signIn(advisor, advisorEmail);
      // The link opened before signing up is applied as soon as they are in: the plan opens.
      await advisor.waitForURL(`${harness.server.url}/dashboard/documents/${plan.uuid}/edit`);
      const parts = editorParts(advisor);
      await advisor
        .getByText('You are a commenter on this plan: you can read it, but not change it.')
        .waitFor();
      await expect.poll(() => parts.editor.getAttribute('contenteditable')).toBe('false');
      await advisor.getByText('The AI assistant is for the plan’s editors.', { exact: false }).waitFor();
      expect(await seriousViolations(advisor)).toEqual([]);
      // Their Share dialog lists the people, with no way to change them, and lets them leave.
      const theirs = await openShareDialog(advisor);
      await theirs.getByText('Only the owner changes who has access.').waitFor();
      expect(await theirs.getByRole('button', { name: /^Remove / }).count()).toBe(0);
      await theirs.getByRole('button', { name: 'Close' }).click();

      // The owner sees them as a commenter, and removes them: the advisor's open page loses the plan.
      const again = await openShareDialog(owner.page);
      const username = advisorEmail.split('@')[0] ?? '';
      expect(await again.getByLabel(`Role of ${username}`).inputValue()).toBe('commenter');
      await again.getByRole('button', { name: `Remove ${username}` }).click();
      await again.getByLabel(`Role of ${username}`).waitFor({ state: 'detached' });
      await advisor.getByText('Document not found.').waitFor();
      const shared = await fetch(`${harness.server.url}/api/v1/documents/${plan.uuid}/`, {
        headers: {
          'x-session-token': (await advisor.evaluate(() => localStorage.getItem('sessionToken'))) ?? '',
        },
      });
      expect(shared.status).toBe(404);
    });
  }

  it('TM2 a plan shared with you is listed on the documents page with your role; an invitation waits on the dashboard until accepted', async () => {
    const owner = await signedInEditorUser(harness, 'teams-lister@example.com');
    const guest = await signedInEditorUser(harness, 'teams-guest@example.com');
    const plan = await owner.client.documents.create({ title: 'Investor memo' });
    await owner.client.members.invite(plan.uuid, { email: 'teams-guest@example.com', role: 'viewer' });
    await guest.page.goto(`${harness.server.url}/dashboard`);
    const invitations = guest.page.getByRole('region', { name: 'Invitations' });
    await invitations.getByText('Investor memo').waitFor();
    await invitations.getByRole('button', { name: 'Accept the invitation to “Investor memo”' }).click();
    await guest.page.waitForURL(`${harness.server.url}/dashboard/documents/${plan.uuid}/edit`);
    await guest.page.getByText('You are a viewer of this plan', { exact: false }).waitFor();
    await guest.page.goto(`${harness.server.url}/dashboard/documents`);
    const shared = guest.page.getByRole('region', { name: 'Shared with you' });
    await shared.getByRole('link', { name: 'Investor memo' }).waitFor();
    await shared.getByText('Viewer', { exact: true }).waitFor();
    expect(await guest.page.getByRole('region', { name: 'Invitations' }).count()).toBe(0);
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`TM3 (${colorScheme}) an organisation created on the team page gets a plan shared with it, and its member opens it as editor`, async () => {
      const owner = await signedInEditorUser(harness, `teams-org-owner-${colorScheme}@example.com`, {
        context: { colorScheme },
      });
      const fellow = await signedInEditorUser(harness, `teams-org-fellow-${colorScheme}@example.com`, {
        context: { colorScheme },
      });
      const page = owner.page;
      await page.goto(`${harness.server.url}/dashboard/team`);
      await page.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
      await page.getByLabel('New organization').fill('Studio North');
      await page.getByRole('button', { name: 'Create organization' }).click();
      const card = page.getByRole('article', { name: 'Studio North' });
      await card.getByRole('heading', { name: 'Studio North' }).waitFor();
      // The owner invites the fellow by e-mail; the invitation waits on the card until it is accepted.
      const fellowEmail = `teams-org-fellow-${colorScheme}@example.com`;
      await card.getByLabel('E-mail address').fill(fellowEmail);
      await card.getByRole('button', { name: 'Send invitation' }).click();
      await page.getByText(`Invitation sent to ${fellowEmail}.`, { exact: false }).waitFor();
      await card.getByRole('button', { name: `Revoke the invitation to ${fellowEmail}` }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      // The fellow accepts it from their dashboard and lands on the team page, in the organisation.
      await fellow.page.goto(`${harness.server.url}/dashboard`);
      await fellow.page
        .getByRole('region', { name: 'Invitations' })
        .getByRole('button', { name: 'Accept the invitation to “Studio North”' })
        .click();
      await fellow.page.waitForURL(`${harness.server.url}/dashboard/team`);
      await fellow.page.getByRole('article', { name: 'Studio North' }).waitFor();
      await page.reload();
      await card.getByLabel(`Role of teams-org-fellow-${colorScheme} in the organization`).waitFor();
      expect(
        await card.getByRole('button', { name: `Revoke the invitation to ${fellowEmail}` }).count(),
      ).toBe(0);

      const plan = await createDefaultDocument(owner);
      await openEditor(harness, page, plan.uuid);
      const share = await openShareDialog(page);
      await share.getByLabel('Organization', { exact: true }).selectOption({ label: 'Studio North' });
      await share.getByLabel('Role', { exact: true }).last().selectOption('editor');
      await share.getByRole('button', { name: 'Share with organization' }).click();
      await share.getByRole('button', { name: 'Stop sharing with Studio North' }).waitFor();

      await fellow.page.goto(`${harness.server.url}/dashboard/documents`);
      const shared = fellow.page.getByRole('region', { name: 'Shared with you' });
      await shared.getByText('Editor', { exact: true }).waitFor();
      await openEditor(harness, fellow.page, plan.uuid);
      await expect.poll(() => editorParts(fellow.page).editor.getAttribute('contenteditable')).toBe('true');
      // The dashboard counts them among the people the owner shares plans with.
      await page.goto(`${harness.server.url}/dashboard/team`);
      await page.getByRole('region', { name: 'People you share plans with' }).waitFor();
    });
  }

  it('TM4 an advisor comments with a mention; the owner sees it appear live, gets the e-mail, replies and resolves it', async () => {
    const owner = await signedInEditorUser(harness, 'teams-comment-owner@example.com');
    const advisor = await signedInEditorUser(harness, 'teams-comment-advisor@example.com');
    const plan = await createDefaultDocument(owner);
    const sent = await owner.client.members.invite(plan.uuid, {
      email: 'teams-comment-advisor@example.com',
      role: 'commenter',
    });
    await advisor.client.invitations.accept(sent.id);
    await openEditor(harness, owner.page, plan.uuid);
    await owner.page.getByRole('tab', { name: 'Comments' }).click();
    const ownerPanel = owner.page.getByRole('region', { name: 'Comments', exact: true });
    await ownerPanel.getByText('No open comments.').waitFor();

    await openEditor(harness, advisor.page, plan.uuid);
    const panel = advisor.page.getByRole('region', { name: 'Comments', exact: true });
    // The first subsection of the sidebar selected, the panel offers a comment on it.
    const first = plan.sections[0]?.subsections[0];
    if (!first) throw new Error('no subsection');
    await advisor.page.goto(
      `${harness.server.url}/dashboard/documents/${plan.uuid}/edit?section=${plan.sections[0]?.uuid}&subsection=${first.uuid}`,
    );
    await panel
      .getByLabel(`Comment on “${first.title}”`)
      .fill('@teams-comment-owner is the market size sourced?');
    await panel.getByRole('button', { name: 'Comment', exact: true }).click();
    await panel.getByRole('article').getByText('@teams-comment-owner is the market size sourced?').waitFor();
    expect(await seriousViolations(advisor.page)).toEqual([]);

    // Live on the owner's open page, with no reload; and in their inbox.
    const thread = ownerPanel.getByRole('article', { name: first.title });
    await thread.getByText('@teams-comment-owner is the market size sourced?').waitFor();
    await linkFromOutbox(
      harness.server,
      'teams-comment-owner@example.com',
      `/dashboard/documents/${plan.uuid}/edit`,
    );
    // The sidebar counts the open thread beside its subsection (and its section).
    await sidebarItem(owner.page, first.uuid).getByText('1 open comment').waitFor();
    await thread.getByLabel('Reply to this thread').fill('Yes: the 2025 census.');
    await thread.getByRole('button', { name: 'Reply', exact: true }).click();
    await thread.getByText('Yes: the 2025 census.').waitFor();
    await thread.getByRole('button', { name: 'Resolve' }).click();
    await ownerPanel.getByText('No open comments.').waitFor();
    await sidebarItem(owner.page, first.uuid).getByText('1 open comment').waitFor({ state: 'detached' });
    await panel.getByText('No open comments.').waitFor();
    await panel.getByLabel('Show').selectOption('resolved');
    await panel.getByText('Yes: the 2025 census.').waitFor();
    // The e-mail's link opens the plan on the thread, resolved or not, with the focus on it.
    const mail = (await readOutbox(harness.server.outboxDir))
      .filter((message) => message.to === 'teams-comment-owner@example.com')
      .at(-1);
    const link = mail?.links.find((candidate) => candidate.includes('?comment='));
    if (!link) throw new Error('no link to the thread in the e-mail');
    const url = new URL(link);
    await owner.page.goto(`${harness.server.url}${url.pathname}${url.search}`);
    await expect
      .poll(() =>
        owner.page.evaluate(() => document.activeElement?.getAttribute('data-comment-thread') ?? null),
      )
      .toBe(url.searchParams.get('comment'));
    expect(await owner.page.getByRole('tab', { name: 'Comments' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    // The advisor's dashboard follows the plan too: who commented, who resolved (docs/teams.md "Activity").
    await advisor.page.goto(`${harness.server.url}/dashboard`);
    const activity = advisor.page.getByRole('region', { name: 'Recent Activity' });
    await activity.getByRole('listitem').filter({ hasText: 'resolved a comment' }).waitFor();
    await activity.getByRole('listitem').filter({ hasText: 'commented on the document' }).waitFor();
  });

  it('TM5 a comment on selected text is highlighted for everyone, and its highlight follows the words while someone types before them', async () => {
    const owner = await signedInEditorUser(harness, 'teams-anchor-owner@example.com');
    const reader = await sameUserElsewhere(harness, owner);
    const plan = await createDefaultDocument(owner);
    const first = plan.sections[0]?.subsections[0];
    if (!first) throw new Error('no subsection');
    await openEditor(harness, owner.page, plan.uuid);
    // The subsection chosen in the sidebar is the one the panel comments on.
    await sidebarItem(owner.page, first.uuid).getByRole('button', { name: first.title, exact: true }).click();
    await typeInSubsection(owner.page, first.uuid, 'The market is worth 3 billion a year.');
    // Select "3 billion" with the keyboard: back over " a year.", then nine characters with Shift.
    for (let i = 0; i < ' a year.'.length; i++) await owner.page.keyboard.press('ArrowLeft');
    for (let i = 0; i < '3 billion'.length; i++) await owner.page.keyboard.press('Shift+ArrowLeft');
    await owner.page.getByRole('tab', { name: 'Comments' }).click();
    const panel = owner.page.getByRole('region', { name: 'Comments', exact: true });
    await panel.getByLabel(`Comment on “${first.title}”`).fill('Sourced?');
    await panel.getByRole('button', { name: 'Comment', exact: true }).click();
    const thread = panel.getByRole('article', { name: first.title });
    await thread.getByText('3 billion', { exact: true }).waitFor();
    const marked = (page: Page) =>
      page
        .locator('.pw-comment-range')
        .evaluateAll((spans) => spans.map((span) => span.textContent).join(''));
    await expect.poll(() => marked(owner.page)).toBe('3 billion');

    await openEditor(harness, reader.page, plan.uuid);
    await expect.poll(() => marked(reader.page)).toBe('3 billion');
    // Clicking the highlighted words (the AI Assistant tab showing) shows their thread, marked, the caret in the text.
    expect(await reader.page.getByRole('tab', { name: 'AI Assistant' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    await reader.page.locator('.pw-comment-range').first().click();
    expect(await reader.page.getByRole('tab', { name: 'Comments' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    const clicked = reader.page
      .getByRole('region', { name: 'Comments', exact: true })
      .getByRole('article', { name: first.title });
    await expect.poll(() => clicked.getAttribute('aria-current')).toBe('true');
    expect(await reader.page.evaluate(() => document.activeElement?.getAttribute('contenteditable'))).toBe(
      'true',
    );
    await reader.page.getByRole('tab', { name: 'AI Assistant' }).click();
    // Someone types at the start of the paragraph: the words move, the highlight moves with them.
    const paragraph = subsectionBody(owner.page, first.uuid).locator('p').last();
    await paragraph.click();
    await owner.page.keyboard.press('Home');
    await owner.page.keyboard.type('In short: ');
    for (const page of [owner.page, reader.page]) {
      // The paragraph's text without the other person's caret label drawn inside it.
      const typed = () =>
        subsectionBody(page, first.uuid)
          .locator('p')
          .last()
          .evaluate((paragraph) => {
            const copy = paragraph.cloneNode(true) as HTMLElement;
            for (const caret of copy.querySelectorAll('.pw-live-caret')) caret.remove();
            return copy.textContent ?? '';
          });
      await expect.poll(typed).toContain('In short: The market');
      await expect.poll(() => marked(page)).toBe('3 billion');
    }
    // Show in text selects the words in the editor.
    await reader.page.getByRole('tab', { name: 'Comments' }).click();
    const readerPanel = reader.page.getByRole('region', { name: 'Comments', exact: true });
    await readerPanel.getByRole('button', { name: 'Show in text' }).click();
    await expect
      .poll(() => reader.page.evaluate(() => document.getSelection()?.toString()))
      .toBe('3 billion');
  });

  it('TM6 a commenter selects words in the read-only text with the mouse and comments on exactly them', async () => {
    const owner = await signedInEditorUser(harness, 'teams-select-owner@example.com');
    const mentor = await signedInEditorUser(harness, 'teams-select-mentor@example.com');
    const plan = await createDefaultDocument(owner);
    const first = plan.sections[0]?.subsections[0];
    if (!first) throw new Error('no subsection');
    const sent = await owner.client.members.invite(plan.uuid, {
      email: 'teams-select-mentor@example.com',
      role: 'commenter',
    });
    await mentor.client.invitations.accept(sent.id);
    await openEditor(harness, owner.page, plan.uuid);
    await typeInSubsection(owner.page, first.uuid, 'We serve 12,000 bakeries in the region.');
    await badgeSaved(owner.page);

    // The mentor opens the plan with nothing chosen in the sidebar, and drags over "12,000 bakeries".
    await openEditor(harness, mentor.page, plan.uuid);
    const panel = mentor.page.getByRole('region', { name: 'Comments', exact: true });
    await panel.getByText('Select a subsection in the sidebar or the text to comment on it.').waitFor();
    const paragraph = subsectionBody(mentor.page, first.uuid).locator('p').first();
    // The paragraph's text without the owner's caret label drawn inside it.
    const typed = () =>
      paragraph.evaluate((element) => {
        const copy = element.cloneNode(true) as HTMLElement;
        for (const caret of copy.querySelectorAll('.pw-live-caret')) caret.remove();
        return copy.textContent ?? '';
      });
    await expect.poll(typed).toBe('We serve 12,000 bakeries in the region.');
    const words = await paragraph.evaluate((element) => {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      let text: Text | null = null;
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if ((node.textContent ?? '').includes('12,000 bakeries')) text = node as Text;
      }
      if (!text) throw new Error('the words are not in one text node');
      const start = (text.textContent ?? '').indexOf('12,000 bakeries');
      const range = document.createRange();
      range.setStart(text, start);
      range.setEnd(text, start + '12,000 bakeries'.length);
      const rects = range.getClientRects();
      const head = rects[0] as DOMRect;
      const tail = rects[rects.length - 1] as DOMRect;
      return {
        x1: head.left + 1,
        y1: head.top + head.height / 2,
        x2: tail.right - 1,
        y2: tail.top + tail.height / 2,
      };
    });
    await mentor.page.mouse.move(words.x1, words.y1);
    await mentor.page.mouse.down();
    await mentor.page.mouse.move(words.x2, words.y2, { steps: 8 });
    await mentor.page.mouse.up();
    await panel.getByLabel(`Comment on “${first.title}”`).fill('Where does 12,000 come from?');
    await panel.getByRole('button', { name: 'Comment', exact: true }).click();
    const thread = panel.getByRole('article', { name: first.title });
    await thread.getByText('12,000 bakeries', { exact: true }).waitFor();
    await expect
      .poll(() =>
        mentor.page
          .locator('.pw-comment-range')
          .evaluateAll((spans) => spans.map((span) => span.textContent).join('')),
      )
      .toBe('12,000 bakeries');
    // Still read-only: the drag changed nothing in the text.
    expect(await typed()).toBe('We serve 12,000 bakeries in the region.');
  });
});
