import type { DocumentDetail, PlanwrightClient } from '@planwright/sdk';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { contentWithNotes } from './subsection-notes.js';

/** The chat panel's parts, by the stable names of packages/web/src/chat/SPEC.md. */
export interface ChatPanelParts {
  readonly panel: Locator;
  readonly context: Locator;
  readonly provider: Locator;
  readonly log: Locator;
  readonly messages: Locator;
  readonly input: Locator;
  readonly banner: Locator;
  readonly cards: Locator;
}

/** The chat panel of the document workspace on `page`. */
export function chatPanel(page: Page): ChatPanelParts {
  const panel = page.getByRole('region', { name: 'AI chat' });
  const log = panel.getByRole('log', { name: 'Chat messages' });
  return {
    panel,
    context: panel.getByTestId('chat-context'),
    provider: panel.getByTestId('chat-provider'),
    log,
    messages: log.getByTestId('chat-message'),
    input: panel.getByRole('textbox', { name: 'Message' }),
    banner: panel.getByRole('alert').filter({ hasText: 'Connection Error' }),
    cards: panel.getByTestId('proposal-card'),
  };
}

/** The AI messages of the panel. */
export function aiMessages(page: Page): Locator {
  return chatPanel(page).messages.and(page.locator('[data-role="ai"]'));
}

/** Types a message into the chat and presses Enter. */
export async function sendChatMessage(page: Page, text: string): Promise<void> {
  const { input } = chatPanel(page);
  await input.fill(text);
  await input.press('Enter');
}

/**
 * Waits until the panel is connected and has asked for its history: the session asks 500 ms after it
 * opened (on the page's clock), and sends queued messages on open anyway.
 */
export async function chatReady(page: Page): Promise<void> {
  const { panel } = chatPanel(page);
  await panel.waitFor();
  await expect
    .poll(
      async () => {
        await page.clock.runFor(600);
        return panel.getAttribute('data-status');
      },
      { timeout: 15_000 },
    )
    .toBe('connected');
}

/** The document's first section and its first two subsections, from a server answer. */
export function firstParts(document: DocumentDetail) {
  const section = document.sections[0];
  const [subsection, next] = section?.subsections ?? [];
  if (!section || !subsection || !next) throw new Error('the default plan has no two subsections');
  return { section, subsection, next, otherSection: document.sections[1] };
}

/**
 * Adds the user's notes to a subsection as one paragraph, through the API, before the editor opens: the offline
 * assistant proposes edits built only from the user's own text, never text of its own.
 */
export async function withNotes(
  client: PlanwrightClient,
  document: DocumentDetail,
  subsectionUuid: string,
  notes: string,
): Promise<DocumentDetail> {
  return client.documents.update(document.uuid, {
    content: contentWithNotes(document.content, subsectionUuid, notes),
  });
}

/** The floating bar over the canvas that decides AI suggestions in the text. */
export function suggestionBar(page: Page): Locator {
  return page.getByRole('toolbar', { name: 'AI suggestions' });
}

/** The text AI suggestions would insert, as drawn in the canvas (never part of the document until accepted). */
export function suggestedInsertions(page: Page): Promise<string> {
  return page
    .locator('.pw-editor .pw-suggestion-ins, .pw-editor .pw-suggestion-ins-block')
    .allTextContents()
    .then((texts) => texts.join(''));
}
