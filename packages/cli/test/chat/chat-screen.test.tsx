import {
  ChatSession,
  type DocumentChanges,
  type DocumentDetail,
  RevisionConflictError,
  type WriteOptions,
} from '@planwright/sdk';
import { markdownToDocument } from '@planwright/sdk/formats';
import { outlineOf } from '@planwright/sdk/model';
import { FakeChatServer, ManualClock } from '@planwright/sdk/testing';
import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChatScreen } from '../../src/chat/chat-screen.js';
import type { DocumentAccess } from '../../src/chat/proposal-decision.js';

/** Ink handles input on the next turns of the event loop; wait until `check` passes (no real sleeping). */
const settle = (check: () => void) => vi.waitFor(check, { timeout: 2000, interval: 5 });

const HOSTILE = '\u001b[2J\u001b]8;;http://evil.example\u0007link\u001b]8;;\u0007 \u202eevil';

/** A document of one section "Plan" with a subsection "Goals" of two paragraphs. */
function makeDocument(): DocumentDetail {
  const imported = markdownToDocument('# Plan\n\n## Goals\n\nWe sell bread.\n\nDaily.\n');
  const content = imported.document;
  const section = outlineOf(content).sections[0];
  if (!section) throw new Error('no section');
  return {
    uuid: 'doc-1',
    title: 'Bakery',
    description: '',
    status: 'in-progress',
    progress: { finalized: 0, total: 1, percent: 0 },
    blueprint: null,
    blueprint_version: null,
    revision: 3,
    role: 'owner',
    sections: [
      {
        uuid: section.uuid,
        blueprint_uuid: null,
        title: 'Plan',
        order: 1,
        developer_prompt: '',
        user_hint: '',
        tool_mode: '',
        mcp_url: '',
        subsections: section.subsections.map((subsection, index) => ({
          uuid: subsection.uuid,
          blueprint_uuid: null,
          title: 'Goals',
          order: index + 1,
          finalized: false,
          developer_prompt: '',
          user_hint: '',
          tool_mode: '',
          mcp_url: '',
        })),
      },
    ],
    created_at: '2026-01-15T09:00:00.000Z',
    updated_at: '2026-01-15T09:00:00.000Z',
    content,
  };
}

/** The paragraphs' node ids, in order. */
function nodeIds(document: DocumentDetail): string[] {
  return JSON.stringify(document.content)
    .match(/"nodeId":"([^"]+)"/g)
    ?.map((match) => match.slice(10, -1)) as string[];
}

/**
 * The document side of the server in memory: `If-Match` is checked as the real server checks it (412 with
 * `current_revision`), so the screen's conflict path is exercised without a network.
 */
function documentStore(document: DocumentDetail) {
  const state = { current: document, saves: [] as { changes: DocumentChanges; options: WriteOptions }[] };
  const access: DocumentAccess = {
    load: async () => state.current,
    save: async (changes, options) => {
      state.saves.push({ changes, options });
      if (options.ifMatch !== undefined && options.ifMatch !== state.current.revision) {
        throw new RevisionConflictError({
          status: 412,
          data: { detail: 'Revision mismatch.', current_revision: state.current.revision },
        } as ConstructorParameters<typeof RevisionConflictError>[0]);
      }
      state.current = {
        ...state.current,
        ...(changes.content ? { content: changes.content } : {}),
        revision: (state.current.revision ?? 0) + 1,
      };
      return state.current;
    },
  };
  return { state, access };
}

function setup(options: { color?: boolean } = {}) {
  const clock = new ManualClock();
  const server = new FakeChatServer({ clock });
  const chat = new ChatSession({
    baseUrl: 'http://test',
    scope: { documentUuid: 'doc-1' },
    getToken: () => 'token',
    socketFactory: server.factory,
    clock,
    createId: (() => {
      let n = 0;
      return () => `id-${++n}`;
    })(),
    logger: { warn: () => {}, error: () => {} },
  });
  const document = makeDocument();
  const store = documentStore(document);
  const screen = render(
    <ChatScreen chat={chat} context="Bakery > Plan" access={store.access} color={options.color ?? false} />,
  );
  chat.connect();
  clock.advance(0);
  server.last.send({ type: 'authenticated', chat_id: 'chat-1', provider: 'offline' });
  const frame = () => screen.lastFrame() ?? '';
  return { clock, server, chat, document, store, screen, frame };
}

afterEach(() => {
  cleanup();
});

describe('the chat screen (Ink)', () => {
  it('T60 T62: shows the context, sends on Enter and streams the answer as it comes', async () => {
    const { server, screen, frame } = setup();
    expect(frame()).toContain('Chat · Bakery > Plan');
    await settle(() => expect(frame()).toContain('connected'));
    screen.stdin.write('Draft the goals');
    await settle(() => expect(frame()).toContain('> Draft the goals█'));
    screen.stdin.write('\r');
    await settle(() => expect(server.framesOfType('message')).toHaveLength(1));
    expect(server.framesOfType('message')[0]).toMatchObject({ message: 'Draft the goals' });
    await settle(() => expect(frame()).toContain('Thinking…'));
    server.last.send({ type: 'ai', content: 'We bake', message_id: 'm1' });
    await settle(() => expect(frame()).toContain('We bake▍'));
    server.last.send({ type: 'ai', content: 'We bake sourdough.', message_id: 'm1' });
    server.last.send({ type: 'end_of_response', message_id: 'm1' });
    await settle(() => expect(frame()).toContain('We bake sourdough.'));
    expect(frame()).not.toContain('▍');
    expect(frame()).toContain('> █');
  });

  it('T31: hostile text from the AI never reaches the terminal as escape sequences', async () => {
    const { server, screen, frame } = setup({ color: false });
    screen.stdin.write('hi\r');
    await settle(() => expect(server.framesOfType('message')).toHaveLength(1));
    server.last.send({ type: 'ai', content: `Hello ${HOSTILE}` });
    server.last.send({ type: 'end_of_response' });
    await settle(() => expect(frame()).toContain('Hello'));
    for (const text of screen.frames) {
      for (const bad of ['\u001b]', '\u001b[2J', '\u202e']) expect(text).not.toContain(bad);
    }
  });

  it('T61: Ctrl+C stops a running answer, a second Ctrl+C exits', async () => {
    const { server, screen, frame } = setup();
    screen.stdin.write('Write a lot\r');
    await settle(() => expect(server.framesOfType('message')).toHaveLength(1));
    server.last.send({ type: 'ai', content: 'Once upon' });
    await settle(() => expect(frame()).toContain('Once upon▍'));
    screen.stdin.write('\u0003');
    await settle(() => expect(server.framesOfType('stop')).toHaveLength(1));
    await settle(() => expect(frame()).toContain('Stopping the answer'));
    expect(screen.stdin.listenerCount('readable')).toBeGreaterThan(0);
    screen.stdin.write('\u0003');
    // The app has exited: Ink let go of the keyboard.
    await settle(() => expect(screen.stdin.listenerCount('readable')).toBe(0));
  });

  it('T61: two Ctrl+C arriving as one chunk exit too, and never become text', async () => {
    const { screen, frame } = setup();
    await settle(() => expect(frame()).toContain('connected'));
    screen.stdin.write('\u0003\u0003');
    await settle(() => expect(screen.stdin.listenerCount('readable')).toBe(0));
    expect(frame()).not.toContain('\ufffd');
  });

  it('T63 T62: a full-subsection proposal shows as a word diff; a accepts, saves with If-Match, then tells the chat', async () => {
    const { server, store, document, screen, frame } = setup();
    const subsection = document.sections[0]?.subsections[0]?.uuid;
    server.last.send({
      type: 'tool_proposal',
      tool_id: 'tool-1',
      tool_name: 'propose_full_subsection',
      payload: {
        subsection_uuid: subsection,
        format: 'markdown',
        content: 'We sell sourdough bread.\n\nDaily.',
      },
    });
    await settle(() => expect(frame()).toContain('a accept ·'));
    expect(frame()).toContain('We sell {+sourdough +}bread.');
    expect(frame()).toContain('replace subsection in Plan > Goals');
    screen.stdin.write('a');
    await settle(() => expect(server.framesOfType('tool_approval')).toHaveLength(1));
    expect(server.framesOfType('tool_approval')[0]).toMatchObject({ tool_id: 'tool-1', action: 'accept' });
    expect(store.state.saves).toHaveLength(1);
    expect(store.state.saves[0]?.options).toEqual({ ifMatch: 3 });
    expect(JSON.stringify(store.state.current.content)).toContain('We sell sourdough bread.');
    await settle(() => expect(frame()).toContain('Applied and saved: revision 4.'));
    expect(frame()).not.toContain('[ ? ]');
  });

  it('T64 T65: partial edits are decided one by one and the accepted ones applied together', async () => {
    const { server, store, document, screen, frame } = setup();
    const [first, second] = nodeIds(document);
    server.last.send({
      type: 'tool_proposal',
      tool_id: 'tool-2',
      tool_name: 'propose_partial_edits',
      payload: {
        edits: [
          {
            target_node_id: first,
            mode: 'replace',
            format: 'markdown',
            content: 'We sell rye.',
            reason: 'Rye sells',
          },
          { target_node_id: second, mode: 'delete', reason: 'Too short' },
        ],
      },
    });
    await settle(() => expect(frame()).toContain('a accept ·'));
    expect(frame()).toContain('Edit 2:');
    expect(frame()).toContain('Why: Rye sells');
    screen.stdin.write('r');
    await settle(() => expect(frame()).toContain('[reject] Edit 1:'));
    expect(server.framesOfType('tool_approval')).toHaveLength(0);
    screen.stdin.write('a');
    await settle(() => expect(server.framesOfType('tool_approval')).toHaveLength(1));
    const saved = JSON.stringify(store.state.current.content);
    expect(saved).toContain('We sell bread.');
    expect(saved).not.toContain('Daily.');
    expect(server.framesOfType('tool_approval')[0]).toMatchObject({ action: 'accept' });
    await settle(() => expect(frame()).toContain('Applied (1 edit) and saved'));
  });

  it('T65: rejecting every change rejects the proposal; nothing is saved', async () => {
    const { server, store, document, screen, frame } = setup();
    server.last.send({
      type: 'tool_proposal',
      tool_id: 'tool-3',
      tool_name: 'propose_full_subsection',
      payload: {
        subsection_uuid: document.sections[0]?.subsections[0]?.uuid,
        format: 'markdown',
        content: 'Nope.',
      },
    });
    await settle(() => expect(frame()).toContain('a accept ·'));
    screen.stdin.write('r');
    await settle(() => expect(server.framesOfType('tool_approval')).toHaveLength(1));
    expect(server.framesOfType('tool_approval')[0]).toMatchObject({ tool_id: 'tool-3', action: 'reject' });
    expect(store.state.saves).toEqual([]);
    await settle(() => expect(frame()).toContain('Proposal rejected.'));
  });

  it('T23: a 412 is shown, nothing is overwritten and the proposal stays pending', async () => {
    const { server, store, document, screen, frame } = setup();
    server.last.send({
      type: 'tool_proposal',
      tool_id: 'tool-4',
      tool_name: 'propose_full_subsection',
      payload: {
        subsection_uuid: document.sections[0]?.subsections[0]?.uuid,
        format: 'markdown',
        content: 'Mine.',
      },
    });
    await settle(() => expect(frame()).toContain('a accept ·'));
    // Someone saves in the web meanwhile.
    store.state.current = { ...store.state.current, revision: 9 };
    screen.stdin.write('a');
    await settle(() => expect(frame()).toContain('Not applied: The document was changed'));
    expect(store.state.current.revision).toBe(9);
    expect(JSON.stringify(store.state.current.content)).not.toContain('Mine.');
    expect(server.framesOfType('tool_approval')).toEqual([]);
    // l reloads and reviews again against the new revision; a then saves.
    screen.stdin.write('l');
    await settle(() => expect(frame()).not.toContain('Not applied'));
    await settle(() => expect(frame()).toContain('a accept ·'));
    screen.stdin.write('a');
    await settle(() => expect(server.framesOfType('tool_approval')).toHaveLength(1));
    expect(store.state.saves.at(-1)?.options).toEqual({ ifMatch: 9 });
  });

  it('T62 T30: with colour, insertions and deletions are coloured instead of marked', async () => {
    const { server, document, frame } = setup({ color: true });
    server.last.send({
      type: 'tool_proposal',
      tool_id: 'tool-5',
      tool_name: 'propose_full_subsection',
      payload: {
        subsection_uuid: document.sections[0]?.subsections[0]?.uuid,
        format: 'markdown',
        content: 'We sell cake.\n\nDaily.',
      },
    });
    await settle(() => expect(frame()).toContain('a accept ·'));
    expect(frame()).not.toContain('{+');
    expect(frame()).toContain('cake');
  });
});
