import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { json } from '../support/fake-server';
import { hostileStrings, IDS } from '../workspace/workspace-support';
import { chatRow, DOC, providerAnswer, renderChat } from './chat-harness';

afterEach(() => {
  cleanup();
  delete (window as { __pwned?: unknown }).__pwned;
});

const panel = () => screen.getByRole('region', { name: 'AI chat' });
const log = () => within(panel()).getByRole('log', { name: 'Chat messages' });
const input = () => within(panel()).getByRole('textbox', { name: 'Message' });
const messages = () => within(log()).queryAllByTestId('chat-message');
const button = (name: string) => within(panel()).getByRole('button', { name });

function typeAndEnter(text: string) {
  fireEvent.change(input(), { target: { value: text } });
  fireEvent.keyDown(input(), { key: 'Enter' });
}

describe('panel and connection (K1, K2, K3, K7, K18)', () => {
  it('K2, K3, K7: the panel names the selection, the provider, and says when it is connected', async () => {
    const chat = renderChat();
    expect(within(panel()).getByTestId('chat-context').textContent).toBe('Market > Size');
    await chat.connect();
    expect(panel().getAttribute('data-status')).toBe('connected');
    await waitFor(() =>
      expect(within(panel()).getByTestId('chat-provider').textContent).toBe('Local model · local-model'),
    );
    expect(chat.chatServer.last.url).toContain(
      `/ws/document/${DOC}/section/${IDS.market}/subsection/${IDS.size}/chat/`,
    );
    expect(input().getAttribute('placeholder')).toBe("Let's plan");
  });

  it('K7: the offline drafter reads "offline"', async () => {
    const chat = renderChat();
    chat.http.on(
      'GET /api/v1/apps/ai/provider/',
      json(providerAnswer({ offline: true, label: 'Offline drafts' })),
    );
    chat.unmount();
    const again = renderChat();
    again.http.on(
      'GET /api/v1/apps/ai/provider/',
      json(providerAnswer({ offline: true, label: 'Offline drafts' })),
    );
    await again.connect();
    await again.serverSends({ type: 'authenticated', chat_id: 'c1', provider: { label: 'Offline drafts' } });
    // The provider call of this render answered online; the session's label is shown.
    expect(within(panel()).getByTestId('chat-provider').textContent).toBe('Offline drafts');
  });

  it('K18: a closed connection shows the Connection Error banner with the session’s words', async () => {
    const chat = renderChat();
    await chat.connect();
    expect(within(panel()).queryByRole('alert')).toBeNull();
    await act(() => chat.chatServer.last.close(1000));
    const banner = within(panel()).getByRole('alert');
    expect(banner.textContent).toContain('Connection Error');
    expect(banner.textContent).toContain('Chat disconnected. You can send a new message to resume.');
    expect(panel().getAttribute('data-status')).toBe('error');
  });

  it('K1: leaving closes the socket', async () => {
    const chat = renderChat();
    await chat.connect();
    const socket = chat.chatServer.last;
    chat.unmount();
    expect(socket.closeCode).toBe(1000);
  });
});

describe('sending and streaming (K10, K12, K13, K19)', () => {
  it('K10, K12, K13: Enter sends; Thinking until text streams; the answer streams in place', async () => {
    const chat = renderChat();
    await chat.connect();
    typeAndEnter('Draft the goals');
    const [sent] = chat.chatServer.framesOfType('message');
    expect(sent).toMatchObject({
      message: 'Draft the goals',
      options: { web_access: 'off', research: 'off' },
    });
    expect((input() as HTMLTextAreaElement).value).toBe('');
    expect(within(log()).getByTestId('chat-thinking').textContent).toContain('Thinking');
    expect(button('Send').hasAttribute('disabled')).toBe(true);

    await chat.serverSends({ type: 'ai', content: 'Hel', message_id: 'm1' });
    expect(within(log()).queryByTestId('chat-thinking')).toBeNull();
    const streaming = messages()[1] as HTMLElement;
    expect(streaming.dataset.role).toBe('ai');
    expect(streaming.dataset.partial).toBe('true');
    await chat.serverSends({ type: 'ai', content: 'Hello **world**', message_id: 'm1' });
    // The same element, grown: the list keeps it and only its text changes.
    expect(messages()[1]).toBe(streaming);
    expect(streaming.textContent).toContain('Hello world');
    expect(within(streaming).getByText('world').tagName).toBe('STRONG');
    await chat.serverSends({ type: 'end_of_response' });
    expect(streaming.dataset.partial).toBeUndefined();
    expect(button('Stop').hasAttribute('disabled')).toBe(true);
  });

  it('K10: Shift+Enter is a new line; a blank message sends nothing', async () => {
    const chat = renderChat();
    await chat.connect();
    fireEvent.change(input(), { target: { value: 'line one' } });
    fireEvent.keyDown(input(), { key: 'Enter', shiftKey: true });
    expect(chat.chatServer.framesOfType('message')).toEqual([]);
    typeAndEnter('line one\nline two');
    expect(chat.chatServer.framesOfType('message')[0]?.message).toBe('line one\nline two');
    await chat.serverSends({ type: 'end_of_response' });
    typeAndEnter('   ');
    expect(chat.chatServer.framesOfType('message')).toHaveLength(1);
  });

  it('K10: Stop asks the server to stop the answer', async () => {
    const chat = renderChat();
    await chat.connect();
    typeAndEnter('Write a lot');
    await chat.serverSends({ type: 'ai', content: 'Once', message_id: 'm1' });
    fireEvent.click(button('Stop'));
    expect(chat.chatServer.framesOfType('stop')).toHaveLength(1);
  });

  it('K9: Web Search and Deep Research feed the send options', async () => {
    const chat = renderChat();
    await chat.connect();
    fireEvent.click(within(panel()).getByRole('checkbox', { name: 'Web Search' }));
    fireEvent.click(within(panel()).getByRole('checkbox', { name: 'Deep Research' }));
    typeAndEnter('Research the market');
    expect(chat.chatServer.framesOfType('message')[0]?.options).toEqual({ web_access: 'on', research: 'on' });
    // This server searches: nothing to warn about.
    expect(within(panel()).queryByTestId('search-unavailable')).toBeNull();
  });

  it('K9: with no search service, turning Web Search on says so before sending', async () => {
    const chat = renderChat({ provider: { supports: { web_access: false, research: false, tools: true } } });
    await chat.connect();
    await waitFor(() => expect(chat.model().getSnapshot().providerInfo?.supports.webAccess).toBe(false));
    expect(within(panel()).queryByTestId('search-unavailable')).toBeNull();
    fireEvent.click(within(panel()).getByRole('checkbox', { name: 'Web Search' }));
    expect(within(panel()).getByRole('note').textContent).toBe(
      'This server has no web search connected: the answer will not search the web.',
    );
  });

  it('K12: Loading chat history until the history answers', async () => {
    const chat = renderChat();
    await chat.advance(0);
    await chat.advance(500);
    expect(within(log()).getByText('Loading chat history')).toBeTruthy();
    await chat.serverSends({
      type: 'history_response',
      messages: [
        { id: 'h1', role: 'user', content: 'Earlier question' },
        { id: 'h2', role: 'ai', content: 'Earlier answer' },
      ],
    });
    expect(within(log()).queryByText('Loading chat history')).toBeNull();
    expect(messages().map((element) => element.dataset.role)).toEqual(['user', 'ai']);
  });
  it('K12: the tool status while a tool runs, and the history warning after 10 s', async () => {
    const chat = renderChat();
    await chat.advance(0);
    await chat.advance(500);
    await chat.advance(10_000);
    expect(
      within(log()).getByText(
        'Chat history took longer than expected to load. Some messages may be missing.',
      ),
    ).toBeTruthy();
    expect(within(log()).queryByText('Loading chat history')).toBeNull();
    await chat.serverSends({ type: 'tool_executing', tool_name: 'web_search', content: 'Searching the web' });
    expect(within(log()).getByTestId('chat-tool-status').textContent).toBe('Searching the web');
    await chat.serverSends({ type: 'tool_complete', tool_name: 'web_search', content: 'Search done' });
    expect(within(log()).getByTestId('chat-tool-status').textContent).toBe('Search done');
    await chat.advance(2_000);
    expect(within(log()).queryByTestId('chat-tool-status')).toBeNull();
  });
});

describe('history menu and new chat (K6, K8)', () => {
  it('K6: Loading..., then the recent chats as "date - title"; choosing one switches to it', async () => {
    let answer: (response: Response) => void = () => {};
    const chat = renderChat({ chats: () => new Promise<Response>((resolve) => (answer = resolve)) });
    await chat.connect();
    fireEvent.click(button('Chat history'));
    const menu = screen.getByRole('menu', { name: 'Chat history' });
    expect(within(menu).getByRole('menuitem', { name: 'New Chat' })).toBeTruthy();
    expect(within(menu).getByText('Loading...')).toBeTruthy();
    await act(async () => answer(json({ results: [chatRow('c1', 'Goals'), chatRow('c2', '')], count: 2 })));
    const list = chat.http.calls('/api/v1/chats/')[0];
    expect(Object.fromEntries(list?.query ?? [])).toMatchObject({
      target: 'subsection',
      object_id: IDS.size,
      document_uuid: DOC,
      page_size: '10',
    });
    fireEvent.click(within(menu).getByRole('menuitem', { name: '14 Jan 2026 - Goals' }));
    expect(within(menu).queryByText('Loading...')).toBeNull();
    await chat.advance(800);
    expect(chat.chatServer.last.url).toContain(`/subsection/${IDS.size}/chat/c1/`);
  });

  it('K6, A8: ArrowDown on the button opens the menu on New Chat (and reads the list); Escape returns', async () => {
    const chat = renderChat();
    await chat.connect();
    const history = button('Chat history');
    act(() => history.focus());
    fireEvent.keyDown(history, { key: 'ArrowDown' });
    const menu = screen.getByRole('menu', { name: 'Chat history' });
    expect(document.activeElement).toBe(within(menu).getByRole('menuitem', { name: 'New Chat' }));
    await waitFor(() => expect(chat.http.calls('/api/v1/chats/')).toHaveLength(1));
    fireEvent.keyDown(document.activeElement ?? menu, { key: 'Escape' });
    expect(screen.queryByRole('menu', { name: 'Chat history' })).toBeNull();
    expect(document.activeElement).toBe(history);
    fireEvent.keyDown(history, { key: 'ArrowLeft' });
    expect(screen.queryByRole('menu', { name: 'Chat history' })).toBeNull();
  });

  it('K6: "No recent chats" and "Failed to load recent chats"', async () => {
    const chat = renderChat();
    await chat.connect();
    fireEvent.click(button('Chat history'));
    await waitFor(() => expect(screen.getByText('No recent chats')).toBeTruthy());
    fireEvent.click(button('Chat history'));
    chat.http.on('GET /api/v1/chats/', json({ detail: 'Boom' }, 500));
    fireEvent.click(button('Chat history'));
    await waitFor(() => expect(screen.getByText('Failed to load recent chats')).toBeTruthy());
    expect(screen.queryAllByRole('menuitem')).toHaveLength(1);
  });

  it('K8: New chat makes a chat about the scope and switches to it; a failure says so', async () => {
    const chat = renderChat();
    await chat.connect();
    fireEvent.click(button('New chat'));
    await waitFor(() => expect(chat.http.calls('/api/v1/chats/', 'POST')).toHaveLength(1));
    expect(chat.http.calls('/api/v1/chats/', 'POST')[0]?.body).toEqual({
      target: 'subsection',
      object_id: IDS.size,
      document_uuid: DOC,
    });
    await waitFor(() => expect(chat.model().session.getSnapshot().scope.chatId).toBe('chat-new'));
    await chat.advance(800);
    expect(chat.chatServer.last.url).toContain('/chat/chat-new/');

    chat.http.on('POST /api/v1/chats/', json({ detail: 'No.' }, 500));
    fireEvent.click(button('New chat'));
    await waitFor(() =>
      expect(within(panel()).getByRole('alert').textContent).toContain(
        'Failed to create or connect to new chat.',
      ),
    );
    fireEvent.click(button('Dismiss'));
    expect(within(panel()).queryByRole('alert')).toBeNull();
  });
});

describe('scope (K4)', () => {
  it('K4: selecting another section switches the chat; the same scope again does nothing', async () => {
    const chat = renderChat();
    await chat.connect();
    const before = chat.chatServer.connections.length;
    chat.select(
      { sectionUuid: IDS.market, subsectionUuid: IDS.size },
      { section: 'Market', subsection: 'Size' },
    );
    await chat.advance(800);
    expect(chat.chatServer.connections).toHaveLength(before);

    chat.select({ sectionUuid: IDS.product, subsectionUuid: null }, { section: 'Product', subsection: null });
    expect(within(panel()).getByTestId('chat-context').textContent).toBe('Product');
    await chat.advance(800);
    expect(chat.chatServer.connections).toHaveLength(before + 1);
    expect(chat.chatServer.last.url).toContain(`/section/${IDS.product}/chat/`);
    expect(chat.chatServer.last.url).not.toContain('/subsection/');
  });
});

describe('upload (K11)', () => {
  it('K11: a read file is a removable chip, sent with the next message', async () => {
    const chat = renderChat();
    let answered = 0;
    chat.http.on('POST /api/v1/apps/ai/attachments/', () => {
      answered += 1;
      return json({
        name: answered === 1 ? 'notes.md' : 'other.txt',
        format: answered === 1 ? 'md' : 'txt',
        content: answered === 1 ? '# Notes' : 'other',
        characters: answered === 1 ? 7 : 5,
        truncated: false,
      });
    });
    await chat.connect();
    const upload = within(panel()).getByLabelText('Upload file') as HTMLInputElement;
    fireEvent.change(upload, {
      target: { files: [new File(['# Notes'], 'notes.md', { type: 'text/markdown' })] },
    });
    await waitFor(() => expect(within(panel()).getAllByTestId('chat-attachment')).toHaveLength(1));
    fireEvent.change(upload, {
      target: { files: [new File(['other'], 'other.txt', { type: 'text/plain' })] },
    });
    await waitFor(() => expect(within(panel()).getAllByTestId('chat-attachment')).toHaveLength(2));
    fireEvent.click(button('Remove other.txt'));
    expect(
      within(panel())
        .getAllByTestId('chat-attachment')
        .map((chip) => chip.textContent),
    ).toEqual([expect.stringContaining('notes.md')]);
    typeAndEnter('Use my notes');
    expect(chat.chatServer.framesOfType('message')[0]?.attachments).toEqual([
      { name: 'notes.md', content: '# Notes' },
    ]);
    expect(within(panel()).queryAllByTestId('chat-attachment')).toEqual([]);
    expect(within(messages()[0] as HTMLElement).getByText('notes.md')).toBeTruthy();
  });

  it('K11: a refused file says why', async () => {
    const chat = renderChat();
    chat.http.on(
      'POST /api/v1/apps/ai/attachments/',
      json({ detail: 'Only .md, .txt and .docx files can be attached.' }, 400),
    );
    await chat.connect();
    const upload = within(panel()).getByLabelText('Upload file');
    fireEvent.change(upload, { target: { files: [new File(['x'], 'x.pdf')] } });
    await waitFor(() =>
      expect(within(panel()).getByRole('alert').textContent).toContain(
        'Only .md, .txt and .docx files can be attached.',
      ),
    );
  });
});

describe('AI messages (K14, K15, K16, K17)', () => {
  it('K15: Insert puts a code block after the editor’s cursor; a refusal is said', async () => {
    const chat = renderChat();
    await chat.connect();
    typeAndEnter('Give me a table');
    await chat.serverSends({
      type: 'ai',
      content: 'Here:\n\n```md\n| a | b |\n```\n\nand\n\n```\nsecond\n```',
    });
    await chat.serverSends({ type: 'end_of_response' });
    const [first, second] = within(log()).getAllByRole('button', { name: 'Insert' });
    fireEvent.click(first as HTMLElement);
    fireEvent.click(second as HTMLElement);
    expect(chat.editor.inserted).toEqual(['| a | b |', 'second']);
    expect(screen.queryByRole('dialog')).toBeNull();
    chat.editor.canInsert = false;
    fireEvent.click(first as HTMLElement);
    expect(within(panel()).getByRole('alert').textContent).toContain('Place the cursor in the editor first.');
  });

  it('K17: a message opens in full in a dialog', async () => {
    const chat = renderChat();
    await chat.connect([{ id: 'h1', role: 'ai', content: 'A long answer about **markets**.' }]);
    fireEvent.click(within(log()).getByRole('button', { name: 'Open message' }));
    const dialog = screen.getByRole('dialog', { name: 'AI message' });
    expect(within(dialog).getByTestId('chat-message-preview').textContent).toBe(
      'A long answer about markets.',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('K16, K21: a proposal is reviewed in the text; its card counts the changes there and shows them', async () => {
    const chat = renderChat();
    await chat.connect();
    typeAndEnter('Draft Size');
    await chat.serverSends({ type: 'ai', content: 'I propose a draft.', message_id: 'm1' });
    await chat.serverSends({
      type: 'tool_proposal',
      tool_id: 't1',
      tool_name: 'propose_full_subsection',
      message_id: 'm1',
      payload: {
        section_uuid: IDS.market,
        subsection_uuid: IDS.size,
        title: 'Size',
        content: 'The market is large.',
      },
    });
    await chat.serverSends({ type: 'end_of_response' });
    const card = within(log()).getByTestId('proposal-card');
    expect(card.dataset.status).toBe('pending');
    const queue = chat.editor.suggestions;
    expect(queue.getSnapshot().suggestions.map((suggestion) => suggestion.turnId)).toEqual(['t1']);
    expect(within(card).getByTestId('proposal-summary').textContent).toContain('1 suggestion in the text');
    fireEvent.click(card);
    expect(queue.getSnapshot().currentId).toBe('t1#0');
    expect(screen.queryByRole('dialog')).toBeNull();
    // Accepted in the text: applied through the workspace, and the chat records it.
    act(() => {
      queue.accept('t1#0');
    });
    expect(chat.editor.applied).toHaveLength(1);
    expect(chat.chatServer.framesOfType('tool_approval')).toEqual([
      expect.objectContaining({ tool_id: 't1', action: 'accept' }),
    ]);
  });

  it('K22: a proposal the AI is still writing is in the text as it grows, then becomes the proposal', async () => {
    const chat = renderChat();
    await chat.connect();
    typeAndEnter('Draft Size');
    await chat.serverSends({
      type: 'tool_generating',
      tool_name: 'propose_full_subsection',
      tool_id: 't3',
      message_id: 'm1',
    });
    await chat.serverSends({
      type: 'tool_generating',
      tool_name: 'propose_full_subsection',
      tool_id: 't3',
      message_id: 'm1',
      partial_payload: { subsection_uuid: IDS.size, content: 'The market is' },
    });
    const queue = chat.editor.suggestions;
    expect(queue.getSnapshot().suggestions.map((s) => [s.turnId, s.streaming, s.item.after])).toEqual([
      ['t3', true, 'The market is'],
    ]);
    await chat.serverSends({
      type: 'tool_proposal',
      tool_id: 't3',
      tool_name: 'propose_full_subsection',
      message_id: 'm1',
      payload: { subsection_uuid: IDS.size, content: 'The market is large.' },
    });
    expect(queue.getSnapshot().suggestions.map((s) => [s.turnId, s.streaming, s.item.after])).toEqual([
      ['t3', false, 'The market is large.'],
    ]);
    await chat.serverSends({ type: 'end_of_response' });
    expect(queue.getSnapshot().suggestions).toHaveLength(1);
  });

  it("K22: a draft whose proposal never came (refused, stopped) leaves the text at the answer's end", async () => {
    const chat = renderChat();
    await chat.connect();
    typeAndEnter('Draft Size');
    await chat.serverSends({
      type: 'tool_generating',
      tool_name: 'propose_full_subsection',
      tool_id: 't4',
      partial_payload: { subsection_uuid: IDS.size, content: 'Half' },
    });
    expect(chat.editor.suggestions.getSnapshot().suggestions).toHaveLength(1);
    await chat.serverSends({ type: 'end_of_response' });
    expect(chat.editor.suggestions.getSnapshot().suggestions).toEqual([]);
  });

  it('K23: the tools the AI runs show in its answer as they run and end, and again from history', async () => {
    const chat = renderChat();
    await chat.connect();
    typeAndEnter('How big is the market?');
    const call = {
      call_id: 'tc1',
      message_id: 'm9',
      tool_name: 'market_size',
      source: 'mcp',
      server: 'mcp.example.com',
    };
    await chat.serverSends({ type: 'tool_call', ...call, status: 'running' });
    const line = () => within(log()).getByTestId('tool-call');
    expect(line().textContent).toBe('market_size (mcp.example.com): running…');
    await chat.serverSends({
      type: 'tool_call',
      ...call,
      status: 'done',
      duration_ms: 412,
      summary: '74 characters',
    });
    await chat.serverSends({ type: 'ai', content: 'About 1,200 bakeries.', message_id: 'm9' });
    await chat.serverSends({ type: 'end_of_response', message_id: 'm9' });
    expect(within(log()).getAllByTestId('tool-call')).toHaveLength(1);
    expect(line().textContent).toBe('market_size (mcp.example.com): 74 characters, 0.4 s');
    expect(messages().at(-1)?.textContent).toContain('About 1,200 bakeries.');
    await chat.serverSends({
      type: 'history_response',
      messages: [
        { id: 'h1', role: 'user', content: 'Earlier' },
        {
          id: 'h2',
          role: 'ai',
          content: 'Earlier answer',
          tool_calls: [
            {
              call_id: 'tc0',
              tool_name: 'web_search',
              source: 'search',
              server: 'SearXNG',
              status: 'failed',
              summary: 'SearXNG is unavailable (HTTP 500).',
            },
          ],
        },
      ],
    });
    expect(
      within(log())
        .getAllByTestId('tool-call')
        .map((element) => element.textContent),
    ).toContain('Web search (SearXNG): failed, SearXNG is unavailable (HTTP 500).');
  });

  it('K21: a rejected proposal opens in the text again and can still be accepted', async () => {
    const chat = renderChat();
    await chat.connect();
    typeAndEnter('Draft Size');
    await chat.serverSends({
      type: 'tool_proposal',
      tool_id: 't2',
      tool_name: 'propose_full_subsection',
      payload: { subsection_uuid: IDS.size, content: 'The market is large.' },
    });
    await chat.serverSends({ type: 'end_of_response' });
    const queue = chat.editor.suggestions;
    act(() => {
      queue.reject('t2#0');
    });
    expect(queue.getSnapshot().suggestions).toEqual([]);
    const card = within(log()).getByTestId('proposal-card');
    expect(card.dataset.status).toBe('rejected');
    fireEvent.click(card);
    expect(queue.getSnapshot().currentId).toBe('t2#0');
    act(() => {
      queue.accept('t2#0');
    });
    expect(within(log()).getByTestId('proposal-card').dataset.status).toBe('accepted');
  });

  it('K14, K20: hostile strings from the AI and the user stay text', async () => {
    const chat = renderChat();
    await chat.connect();
    const strings = hostileStrings().filter((value) => /[<>&"'`]|script|javascript/i.test(value));
    expect(strings.length).toBeGreaterThan(20);
    const answer = [
      ...strings,
      '[click](javascript:window.__pwned=1)',
      '<img src=x onerror="window.__pwned=1">',
      '```\n<script>window.__pwned=1</script>\n```',
    ].join('\n\n');
    typeAndEnter(strings.join('\n'));
    await chat.serverSends({ type: 'ai', content: answer, message_id: 'm1' });
    await chat.serverSends({ type: 'end_of_response' });
    expect((window as { __pwned?: unknown }).__pwned).toBeUndefined();
    const root = log();
    expect(root.querySelectorAll('script, img, iframe, object, embed, style, svg, form')).toHaveLength(0);
    for (const element of root.querySelectorAll('*'))
      for (const attribute of element.attributes) expect(attribute.name.startsWith('on')).toBe(false);
    for (const link of root.querySelectorAll('a'))
      expect(link.getAttribute('href')).toMatch(/^(https?:|mailto:)/i);
    expect(messages()[0]?.textContent).toContain(strings[0]);
    expect(within(root).getByRole('button', { name: 'Insert' })).toBeTruthy();
  });
});
