import { createPlanwrightClient, MemoryTokenStore } from '@planwright/sdk';
import type { DocumentJson } from '@planwright/sdk/model';
import { SuggestionQueue } from '@planwright/sdk/proposals';
import { FakeChatServer, ManualClock } from '@planwright/sdk/testing';
import { act, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { PlanwrightClientContext } from '../../src/api/client-context';
import { type ChatEditor, ChatPanel, useChatPanelModel } from '../../src/chat/chat-panel';
import type { ChatPanelModel } from '../../src/chat/chat-panel-model';
import type { ChatContext, ChatSelection } from '../../src/chat/chat-panel-rules';
import { ChatSessionOptionsContext } from '../../src/chat/chat-session-context';
import type { BrowserPorts } from '../../src/platform/browser-ports';
import { BrowserPortsContext } from '../../src/platform/browser-ports-context';
import type { SuggestionListener } from '../../src/workspace/plan-workspace';
import { createFakeServer, json } from '../support/fake-server';
import { memoryStorage } from '../support/render-app';
import { IDS, planContent, SESSION } from '../workspace/workspace-support';

// The socket's frames are delivered inside `act`, as React asks of a test environment.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export const DOC = 'doc-1';

/** `GET apps/ai/provider/` as the server answers it. */
export function providerAnswer(overrides: Record<string, unknown> = {}) {
  return {
    name: 'openai-compatible',
    model: 'local-model',
    label: 'Local model · local-model',
    offline: false,
    supports: { web_access: true, research: true, tools: true },
    calls_per_minute: 30,
    ...overrides,
  };
}

/** A chat as `GET chats/` lists it. */
export function chatRow(id: string, title: string, updated = '2026-01-14T08:00:00Z') {
  return { id, title, created_at: updated, updated_at: updated, target: 'document', object_id: DOC };
}

/**
 * The workspace side the panel calls (contract 2): what the editor holds, applying a whole content and
 * inserting a paragraph after the cursor. It records the calls and answers as the workspace would.
 */
export interface RecordingEditor extends ChatEditor {
  content: DocumentJson;
  inserted: string[];
  applied: DocumentJson[];
  canInsert: boolean;
}

export function recordingEditor(content: DocumentJson = planContent()): RecordingEditor {
  const listeners = new Set<SuggestionListener>();
  const queue = new SuggestionQueue({
    getDocument: () => editor.content,
    applyDocument: (next) => editor.applyContent(next),
    onTurnDecided: (turn, decision) => {
      for (const listener of listeners) listener.decided?.(turn, decision);
    },
  });
  const editor: RecordingEditor = {
    content,
    suggestions: queue,
    onSuggestionEvents: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    showSuggestionTurn: (turnId) => queue.selectTurn(turnId) !== null,
    inserted: [] as string[],
    applied: [] as DocumentJson[],
    canInsert: true,
    currentContent: () => editor.content,
    applyContent: (next: DocumentJson) => {
      editor.applied.push(next);
      editor.content = next;
      return true;
    },
    insertParagraphAfterCursor: (text: string) => {
      if (!editor.canInsert) return false;
      editor.inserted.push(text);
      return true;
    },
  };
  return editor;
}

function Harness({
  selection,
  context,
  editor,
  onModel,
}: {
  selection: ChatSelection;
  context: ChatContext;
  editor: ChatEditor;
  onModel: (model: ChatPanelModel | null) => void;
}) {
  const model = useChatPanelModel(DOC, selection);
  onModel(model);
  return model ? <ChatPanel model={model} editor={editor} context={context} /> : null;
}

export interface ChatSetup {
  selection?: ChatSelection;
  context?: ChatContext;
  /** `GET chats/`; default: no chats. */
  chats?: () => Response | Promise<Response>;
  /** Fields of `GET apps/ai/provider/` over the default answer. */
  provider?: Record<string, unknown>;
}

/**
 * The panel over a real SDK client whose network is the fake HTTP server (chats, provider, attachments) and
 * whose socket is the SDK's `FakeChatServer`, all on one manual clock.
 */
export function renderChat(setup: ChatSetup = {}) {
  const clock = new ManualClock();
  const chatServer = new FakeChatServer({ clock });
  const http = createFakeServer();
  http.on('GET /api/v1/apps/ai/provider/', json(providerAnswer(setup.provider)));
  http.on('GET /api/v1/chats/', () => (setup.chats ? setup.chats() : json({ results: [], count: 0 })));
  http.on('POST /api/v1/chats/', json({ ...chatRow('chat-new', ''), target: 'document' }, 201));
  const tokenStore = new MemoryTokenStore();
  tokenStore.setSession(SESSION);
  const client = createPlanwrightClient({ baseUrl: 'http://planwright.test', fetch: http.fetch, tokenStore });
  let ids = 0;
  const sessionOptions = {
    socketFactory: chatServer.factory,
    createId: () => `id-${++ids}`,
    random: () => 0.5,
  };
  const ports: BrowserPorts = {
    clock,
    storage: () => memoryStorage(),
    submitForm: vi.fn(),
    opener: () => null,
    closeWindow: vi.fn(),
    origin: () => 'http://planwright.test',
    logError: vi.fn(),
  };
  const editor = recordingEditor();
  let model: ChatPanelModel | null = null;
  const element = (selection: ChatSelection, context: ChatContext) => (
    <Harness
      selection={selection}
      context={context}
      editor={editor}
      onModel={(next) => {
        model = next;
      }}
    />
  );
  const selection = setup.selection ?? { sectionUuid: IDS.market, subsectionUuid: IDS.size };
  const context = setup.context ?? { section: 'Market', subsection: 'Size' };
  const tree = (inner: ReactElement) => (
    <PlanwrightClientContext value={client}>
      <BrowserPortsContext value={ports}>
        <ChatSessionOptionsContext value={sessionOptions}>
          <MemoryRouter>{inner}</MemoryRouter>
        </ChatSessionOptionsContext>
      </BrowserPortsContext>
    </PlanwrightClientContext>
  );
  const view = render(tree(element(selection, context)));
  const advance = (ms: number) =>
    act(() => {
      clock.advance(ms);
    });
  return {
    ...view,
    clock,
    chatServer,
    http,
    editor,
    client,
    model: () => {
      if (!model) throw new Error('no model yet');
      return model;
    },
    advance,
    /** Selects another part of the plan, as the sidebar would. */
    select(next: ChatSelection, nextContext: ChatContext) {
      view.rerender(tree(element(next, nextContext)));
    },
    /** Lets the socket open and the history be asked for (500 ms after open), answering it. */
    async connect(history: unknown[] = []) {
      await advance(0);
      await advance(500);
      await act(() => {
        chatServer.last.send({ type: 'history_response', messages: history });
      });
    },
    /** Sends a frame from the server. */
    serverSends(frame: unknown) {
      return act(() => {
        chatServer.last.send(frame);
      });
    },
  };
}
