import { afterAll, describe, expect, it } from 'vitest';
import {
  type McpTestServer,
  type RawServer,
  startMcpTestServer,
  startRawServer,
} from '../../packages/server/test/support/mcp-test-server.js';
import { type ExpectedConsoleError, useBrowserHarness } from '../support/browser.js';
import {
  aiMessages,
  chatPanel,
  chatReady,
  firstParts,
  sendChatMessage,
  suggestedInsertions,
  suggestionBar,
} from '../support/chat-page.js';
import {
  badgeText,
  createDefaultDocument,
  type EditorUser,
  editorParts,
  LIVE_SOCKET_DOWN,
  nodeByUuid,
  openEditor,
  SERVER_DOWN,
  serverSubsectionText,
  signedInEditorUser,
  subsectionBody,
  typeInSubsection,
  waitForSaved,
} from '../support/editor-page.js';
import { type OpenAiStreamServer, startOpenAiStreamServer } from '../support/openai-stream-server.js';

/**
 * Issue 9's browser suite: the chat panel, proposal review and the bubble's AI actions in Chromium against
 * the real server, whose `openai-compatible` provider streams from a local server speaking OpenAI's wire format.
 */

let model: OpenAiStreamServer | undefined;
let mcp: McpTestServer | undefined;
let search: RawServer | undefined;
/** While set, the model holds its answer before this chunk until `release()` (to see a stream mid-way). */
let hold: { chunk: number; gate: Promise<void>; release: () => void } | null = null;

function holdAt(chunk: number): () => void {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  hold = { chunk, gate, release };
  return () => {
    hold = null;
    release();
  };
}

function streamServer(): OpenAiStreamServer {
  if (!model) throw new Error('the model server is not running');
  return model;
}

const harness = useBrowserHarness(async () => {
  model = await startOpenAiStreamServer({
    onChunk: async ({ chunkIndex }) => {
      if (hold && chunkIndex >= hold.chunk) await hold.gate;
    },
  });
  // A section's MCP server and a web search service (SearXNG's wire format), both local (issue 25 "Tools").
  mcp = await startMcpTestServer();
  search = await startRawServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(SEARCH_RESULTS)),
  );
  return {
    env: {
      ...model.providerEnv(),
      PLANWRIGHT_MCP_ALLOWED_URLS: mcp.origin,
      PLANWRIGHT_MCP_ALLOW_PRIVATE_NETWORK: 'true',
      PLANWRIGHT_SEARCH_PROVIDER: 'searxng',
      PLANWRIGHT_SEARCH_URL: search.origin,
    },
  };
});
afterAll(async () => {
  hold?.release();
  await Promise.all([model?.close(), mcp?.close(), search?.close()]);
});

const SEARCH_RESULTS = {
  query: 'bakeries in Lyon',
  results: [
    {
      title: 'Bakeries in Lyon, 2024',
      url: 'https://stats.example.org/lyon-bakeries',
      content: '1,200 bakeries.',
    },
  ],
};

/** How long a poll waits: a first answer on a loaded 2-core CI machine can take seconds. */
const SETTLE = { timeout: 15_000 };

/** The socket's failed attempts while the server is down are console errors Chromium logs itself. */
const SOCKET_DOWN: ExpectedConsoleError = {
  text: /^WebSocket connection to 'ws:\/\/127\.0\.0\.1:\d+\/ws\/document\/.+' failed/,
  url: /.*/,
};

async function openChat(email: string, options: { expected?: ExpectedConsoleError[] } = {}) {
  const user = await signedInEditorUser(harness, email, { installClock: true, ...options });
  const document = await createDefaultDocument(user);
  const parts = firstParts(document);
  await openEditor(harness, user.page, document.uuid, {
    section: parts.section.uuid,
    subsection: parts.subsection.uuid,
  });
  await chatReady(user.page);
  return { user, document, ...parts };
}

/** The nodeIds of a subsection's body blocks on the server, in order. */
async function serverBlockIds(user: EditorUser, uuid: string, subsectionUuid: string): Promise<string[]> {
  const document = await user.client.documents.get(uuid);
  const node = nodeByUuid(document.content, subsectionUuid) as
    | { content?: { attrs?: { nodeId?: string } }[] }
    | undefined;
  return (node?.content ?? []).slice(1).map((block) => block.attrs?.nodeId ?? '');
}

describe('AI chat in Chromium against the real server and a streaming model', () => {
  it('streams a subsection draft, shows its diff, applies it on accept (autosave reaches Saved), rejects another', async () => {
    const { user, document, section, subsection } = await openChat('chat-draft@example.com');
    const { page } = user;
    const chat = chatPanel(page);
    await expect
      .poll(() => chat.context.textContent(), SETTLE)
      .toBe(`${section.title} > ${subsection.title}`);
    expect(await chat.provider.textContent()).toContain('test-model');

    const draft = 'We bake sourdough for the whole neighbourhood.';
    streamServer().script(
      {
        type: 'answer',
        text: ['Here is ', 'a first ', 'draft ', 'for you.'],
        toolCalls: [
          {
            name: 'propose_full_subsection',
            arguments: { subsection_uuid: subsection.uuid, format: 'markdown', content: draft },
          },
        ],
      },
      {
        type: 'answer',
        text: 'Another take.',
        toolCalls: [
          {
            name: 'propose_full_subsection',
            arguments: { subsection_uuid: subsection.uuid, format: 'markdown', content: 'Not this one.' },
          },
        ],
      },
    );
    const release = holdAt(3);
    await sendChatMessage(page, 'Draft this subsection');
    // Mid-stream: the first words are on screen while the model holds the rest.
    const streaming = aiMessages(page).last();
    await expect.poll(() => streaming.getAttribute('data-partial'), SETTLE).toBe('true');
    await expect.poll(() => streaming.textContent(), SETTLE).toContain('Here is');
    expect(await streaming.textContent()).not.toContain('for you.');
    release();
    await expect.poll(() => streaming.getAttribute('data-partial'), SETTLE).not.toBe('true');
    expect(await streaming.textContent()).toContain('Here is a first draft for you.');

    const card = chat.cards.first();
    await expect.poll(() => card.getAttribute('data-status'), SETTLE).toBe('pending');
    // Reviewed in the text: the draft is drawn where it would land, and is not in the document yet.
    await expect.poll(() => suggestedInsertions(page), SETTLE).toContain('sourdough');
    const bar = suggestionBar(page);
    expect(await bar.textContent()).toContain('Suggestion 1 of 1');
    await card.click();
    await bar.getByRole('button', { name: 'Accept', exact: true }).click();
    await bar.waitFor({ state: 'hidden' });
    await expect.poll(() => subsectionBody(page, subsection.uuid).textContent(), SETTLE).toContain(draft);
    expect(await page.locator('.pw-editor .pw-suggestion-ins').count()).toBe(0);
    await expect.poll(() => card.getAttribute('data-status'), SETTLE).toBe('accepted');
    await waitForSaved(page);
    expect(await serverSubsectionText(user, document.uuid, subsection.uuid)).toBe(draft);

    await sendChatMessage(page, 'Try another take');
    const second = chat.cards.nth(1);
    await expect.poll(() => second.getAttribute('data-status'), SETTLE).toBe('pending');
    await expect.poll(() => suggestedInsertions(page), SETTLE).toContain('this');
    await suggestionBar(page).getByRole('button', { name: 'Reject', exact: true }).click();
    await expect.poll(() => second.getAttribute('data-status'), SETTLE).toBe('rejected');
    expect(await subsectionBody(page, subsection.uuid).textContent()).toContain(draft);
    expect(await subsectionBody(page, subsection.uuid).textContent()).not.toContain('Not this one.');
    // One undo takes the accepted turn back, whole.
    await subsectionBody(page, subsection.uuid).click();
    await page.keyboard.press('ControlOrMeta+z');
    await expect.poll(() => subsectionBody(page, subsection.uuid).textContent(), SETTLE).not.toContain(draft);
    await page.keyboard.press('ControlOrMeta+Shift+z');
    await expect.poll(() => subsectionBody(page, subsection.uuid).textContent(), SETTLE).toContain(draft);
    await waitForSaved(page);
    expect(await badgeText(page)).toBe('Saved');
  });

  it('accepts one of two partial edits', async () => {
    const { user, document, subsection } = await openChat('chat-partial@example.com');
    const { page } = user;
    await typeInSubsection(page, subsection.uuid, 'Alpha line.');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Beta line.');
    await waitForSaved(page);
    const [alpha, beta] = await serverBlockIds(user, document.uuid, subsection.uuid);
    if (!alpha || !beta) throw new Error('the two typed paragraphs have no nodeIds');

    streamServer().script({
      type: 'answer',
      text: 'Two edits.',
      toolCalls: [
        {
          name: 'propose_partial_edits',
          arguments: {
            edits: [
              { targetNodeId: alpha, mode: 'replace', format: 'markdown', content: 'Gamma line.' },
              { targetNodeId: beta, mode: 'replace', format: 'markdown', content: 'Delta line.' },
            ],
          },
        },
      ],
    });
    await sendChatMessage(page, 'Tighten both lines');
    const card = chatPanel(page).cards.first();
    await expect.poll(() => card.getAttribute('data-status'), SETTLE).toBe('pending');
    const bar = suggestionBar(page);
    await expect.poll(() => bar.textContent(), SETTLE).toContain('Suggestion 1 of 2');
    // From the text itself: the current change's own Accept, then the keyboard rejects the next one.
    await page.getByRole('button', { name: 'Accept suggestion 1' }).click();
    await expect.poll(() => bar.textContent(), SETTLE).toContain('Suggestion 1 of 1');
    await subsectionBody(page, subsection.uuid).click();
    await page.keyboard.press('ControlOrMeta+Shift+Backspace');
    await bar.waitFor({ state: 'hidden' });
    await waitForSaved(page);
    expect(await serverSubsectionText(user, document.uuid, subsection.uuid)).toBe('Gamma line.\nBeta line.');
    expect(await card.getAttribute('data-status')).toBe('accepted');
  });

  it('rewrites a selection with an AI text action, reviewed in the text', async () => {
    const { user, document, subsection } = await openChat('chat-transform@example.com');
    const { page } = user;
    await typeInSubsection(page, subsection.uuid, 'we sells bread good');
    await page.keyboard.press('Shift+Home');
    streamServer().script({ type: 'answer', text: 'We sell good bread.' });
    await page.getByRole('button', { name: 'AI actions' }).click();
    await page.getByRole('menuitem', { name: 'Fix spelling & grammar' }).click();
    await expect.poll(() => suggestedInsertions(page), SETTLE).toContain('bread.');
    const bar = suggestionBar(page);
    expect(await bar.textContent()).toContain('Fix spelling & grammar');
    // The text is unchanged until accepted.
    expect(await serverSubsectionText(user, document.uuid, subsection.uuid)).toBe('we sells bread good');
    await bar.getByRole('button', { name: 'Accept', exact: true }).click();
    await expect
      .poll(() => subsectionBody(page, subsection.uuid).textContent(), SETTLE)
      .toContain('We sell good bread.');
    await waitForSaved(page);
    expect(await serverSubsectionText(user, document.uuid, subsection.uuid)).toBe('We sell good bread.');
    const request = streamServer().requests.at(-1)?.body;
    expect(JSON.stringify(request)).toContain('we sells bread good');
  });

  it('follows the selected section: the context line and the scope of the next message change', async () => {
    const { user, otherSection } = await openChat('chat-scope@example.com');
    const { page } = user;
    if (!otherSection) throw new Error('the default plan has one section');
    await editorParts(page).sidebar.getByRole('button', { name: otherSection.title, exact: true }).click();
    const chat = chatPanel(page);
    await expect.poll(() => chat.context.textContent(), SETTLE).toBe(otherSection.title);
    await chatReady(page);
    streamServer().script({ type: 'answer', text: 'About this section.' });
    const before = streamServer().requests.length;
    await sendChatMessage(page, 'What belongs here?');
    await expect.poll(() => aiMessages(page).last().textContent(), SETTLE).toContain('About this section.');
    const request = streamServer().requests[before]?.body;
    expect(JSON.stringify(request)).toContain(otherSection.uuid);
  });

  it('shows the banner when the server is killed mid-answer, and a new message resumes once it is back', async () => {
    const { user } = await openChat('chat-outage@example.com', {
      expected: [SOCKET_DOWN, LIVE_SOCKET_DOWN, SERVER_DOWN],
    });
    const { page } = user;
    const chat = chatPanel(page);
    // Past the stabilisation window (5 s after open), so a drop is shown rather than retried silently.
    await page.clock.runFor(6_000);
    streamServer().script({ type: 'answer', text: ['Half of ', 'an answer ', 'and the rest.'] });
    const release = holdAt(3);
    await sendChatMessage(page, 'Start an answer');
    const interrupted = aiMessages(page).last();
    await expect.poll(() => interrupted.textContent(), SETTLE).toContain('Half of');

    const killing = harness.server.kill();
    try {
      await expect.poll(() => chat.banner.count(), SETTLE).toBeGreaterThan(0);
      expect(await chat.banner.textContent()).toContain('You can send a new message to resume.');
      expect(await interrupted.textContent()).not.toContain('and the rest.');
    } finally {
      // The answer in flight finishes server-side (and is stored) before the old server is gone.
      release();
      await killing;
      await harness.server.restart();
    }
    streamServer().script({ type: 'answer', text: 'Back again.' });
    await sendChatMessage(page, 'Are you there?');
    await expect
      .poll(
        async () => {
          await page.clock.runFor(1_000);
          return aiMessages(page).last().textContent();
        },
        { timeout: 30_000 },
      )
      .toContain('Back again.');
    expect(await chat.banner.count()).toBe(0);
    // What the server kept: a reload shows the interrupted answer whole, and the new one.
    await page.reload();
    await chatReady(page);
    await expect.poll(() => chatPanel(page).log.textContent(), SETTLE).toContain('Back again.');
    expect(await chatPanel(page).log.textContent()).toContain('Half of an answer and the rest.');
  });

  it("uses the section's MCP tool and the web search within a turn: the calls show in the answer, the answer cites its link", async () => {
    const { user, document, section } = await openChat('chat-tools@example.com');
    const { page } = user;
    await user.client.documents.sections.update(document.uuid, section.uuid, {
      tool_mode: 'mcp',
      mcp_url: mcp?.url ?? '',
    });
    streamServer().script(
      {
        type: 'answer',
        text: 'Checking.',
        toolCalls: [{ id: 'c1', name: 'market_size', arguments: { city: 'Lyon', sector: 'bakery' } }],
      },
      {
        type: 'answer',
        toolCalls: [{ id: 'c2', name: 'web_search', arguments: { query: 'bakeries in Lyon' } }],
      },
      {
        type: 'answer',
        text: 'Worth EUR 48 million, with about 1,200 bakeries ([Bakeries in Lyon, 2024](https://stats.example.org/lyon-bakeries)).',
      },
    );
    const chat = chatPanel(page);
    await chat.panel.getByRole('checkbox', { name: 'Web Search' }).check();
    await sendChatMessage(page, 'How big is the market?');
    const answer = aiMessages(page).last();
    await expect.poll(() => answer.textContent(), SETTLE).toContain('EUR 48 million');
    const calls = answer.getByTestId('tool-call');
    await expect
      .poll(() => calls.allTextContents(), SETTLE)
      .toEqual([
        expect.stringMatching(/^market_size \(127\.0\.0\.1:\d+\): \d[\d,]* characters, \d+\.\d s$/),
        expect.stringMatching(/^Web search \(SearXNG\): 1 results?, \d+\.\d s$/),
      ]);
    const link = answer.getByRole('link', { name: 'Bakeries in Lyon, 2024' });
    expect(await link.getAttribute('href')).toBe('https://stats.example.org/lyon-bakeries');
    expect(mcp?.calls.at(-1)?.name).toBe('market_size');
  });
});
