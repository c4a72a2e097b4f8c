import {
  ApiError,
  AuthRequiredError,
  type ChatSummary,
  createPlanwrightClient,
  InvalidInputError,
  MemoryTokenStore,
  ResponseValidationError,
} from '@planwright/sdk';
import { FakeChatServer, ManualClock } from '@planwright/sdk/testing';
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { jsonBody, rejectionOf } from '../support/allauth.js';
import { reply, useRecordingServer } from '../support/recording-server.js';
import { DOC_UUID, SECTION_UUID } from '../support/workspace-fixtures.js';

const CHAT_ID = 'c0ffee00-1234-4abc-8def-0123456789ab';

function chatJson(overrides: Record<string, unknown> = {}) {
  return {
    id: CHAT_ID,
    uuid: CHAT_ID,
    title: 'Pricing questions',
    target: 'section',
    object_id: SECTION_UUID,
    document_uuid: DOC_UUID,
    created_at: '2026-01-02T03:04:05.000Z',
    updated_at: '2026-01-03T03:04:05.000Z',
    ...overrides,
  };
}

const expected: ChatSummary = {
  id: CHAT_ID,
  title: 'Pricing questions',
  target: 'section',
  objectId: SECTION_UUID,
  documentUuid: DOC_UUID,
  createdAt: '2026-01-02T03:04:05.000Z',
  updatedAt: '2026-01-03T03:04:05.000Z',
};

const server = useRecordingServer((_req, res) =>
  reply(res, 200, { data: [chatJson()], meta: { pagination: { total: 1, page: 1, page_size: 10 } } }),
);

const tokenStore = () => new MemoryTokenStore({ token: 'tok' });
const client = () => createPlanwrightClient({ baseUrl: server.origin, tokenStore: tokenStore() });

describe('chats.list', () => {
  it('AI1: GETs chats/ with target, object_id and the session token, and normalises the answer', async () => {
    const page = await client().chats.list({ target: 'section', objectId: SECTION_UUID });
    expect(server.last()).toMatchObject({
      method: 'GET',
      url: `/api/v1/chats/?target=section&object_id=${SECTION_UUID}`,
    });
    expect(server.last().headers['x-session-token']).toBe('tok');
    expectTypeOf(page.items).toEqualTypeOf<ChatSummary[]>();
    expect(page).toEqual({ items: [expected], total: 1 });
  });

  it('AI1: sends document_uuid and page_size when given', async () => {
    await client().chats.list({
      target: 'subsection',
      objectId: SECTION_UUID,
      documentUuid: DOC_UUID,
      pageSize: 25,
    });
    const url = new URL(server.last().url, 'http://x');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      target: 'subsection',
      object_id: SECTION_UUID,
      document_uuid: DOC_UUID,
      page_size: '25',
    });
  });

  it.each([
    ['a bare array', (items: unknown[]) => items],
    ['list', (items: unknown[]) => ({ list: items })],
    ['results', (items: unknown[]) => ({ results: items, count: 1 })],
    ['data', (items: unknown[]) => ({ data: items })],
  ])('AI2: accepts the list as %s', async (_name, wrap) => {
    server.handle((_req, res) => reply(res, 200, wrap([chatJson()])));
    const page = await client().chats.list({ target: 'section', objectId: SECTION_UUID });
    expect(page.items).toEqual([expected]);
  });

  it.each([
    ['id', { id: 'chat-1' }, 'chat-1'],
    ['uuid', { uuid: 'chat-2' }, 'chat-2'],
    ['pk', { pk: 42 }, '42'],
  ])('AI2: reads the identifier from %s', async (_name, identity, id) => {
    const { id: _i, uuid: _u, ...rest } = chatJson();
    server.handle((_req, res) => reply(res, 200, { list: [{ ...rest, ...identity }] }));
    const page = await client().chats.list({ target: 'section', objectId: SECTION_UUID });
    expect(page.items[0]?.id).toBe(id);
  });

  it('AI2: an item without id, uuid or pk is a ResponseValidationError naming the item', async () => {
    const { id: _i, uuid: _u, ...rest } = chatJson();
    server.handle((_req, res) => reply(res, 200, { results: [chatJson(), rest] }));
    const error = await rejectionOf(client().chats.list({ target: 'section', objectId: SECTION_UUID }));
    expect(ResponseValidationError.isInstance(error)).toBe(true);
    expect((error as ResponseValidationError).issues[0]?.path).toEqual(['results', 1, 'id']);
  });

  it('AI3: a spec-001 item (id, title, created_at only) is filled from the request; no title is "Untitled Chat"', async () => {
    server.handle((_req, res) =>
      reply(res, 200, {
        list: [
          { pk: 7, created_at: '2026-01-01T00:00:00Z' },
          { id: 8, title: '  ' },
        ],
      }),
    );
    const page = await client().chats.list({ target: 'document', objectId: DOC_UUID });
    expect(page.items).toEqual([
      {
        id: '7',
        title: 'Untitled Chat',
        createdAt: '2026-01-01T00:00:00Z',
        updatedAt: '2026-01-01T00:00:00Z',
        target: 'document',
        objectId: DOC_UUID,
        documentUuid: DOC_UUID,
      },
      {
        id: '8',
        title: 'Untitled Chat',
        createdAt: null,
        updatedAt: null,
        target: 'document',
        objectId: DOC_UUID,
        documentUuid: DOC_UUID,
      },
    ]);
  });

  it.each([
    [{ target: 'chapter', objectId: SECTION_UUID }, 'target'],
    [{ target: 'section', objectId: '  ' }, 'objectId'],
    [{ target: 'section', objectId: SECTION_UUID, documentUuid: '' }, 'documentUuid'],
    [{ target: 'section', objectId: SECTION_UUID, pageSize: 0 }, 'pageSize'],
    [{ target: 'section', objectId: SECTION_UUID, pageSize: 51 }, 'pageSize'],
    [{ target: 'section', objectId: SECTION_UUID, pageSize: 1.5 }, 'pageSize'],
  ])('AI5: refuses %j before sending, naming %s', async (query, field) => {
    const error = await rejectionOf(client().chats.list(query as never));
    expect(InvalidInputError.isInstance(error)).toBe(true);
    expect((error as InvalidInputError).issues[0]?.path).toEqual([field]);
    expect(server.requests).toHaveLength(0);
  });

  it('AI15: a 404 is an ApiError with the server detail; a 401 an AuthRequiredError that clears the token', async () => {
    server.handle((_req, res) => reply(res, 404, { detail: 'No such section.', code: 'not_found' }));
    const notFound = await rejectionOf(client().chats.list({ target: 'section', objectId: SECTION_UUID }));
    expect(ApiError.isInstance(notFound) && !AuthRequiredError.isInstance(notFound)).toBe(true);
    expect(notFound).toMatchObject({ status: 404, detail: 'No such section.', serverCode: 'not_found' });

    server.handle((_req, res) => reply(res, 401, { detail: 'Sign in first.' }));
    const store = tokenStore();
    const signedOut = createPlanwrightClient({ baseUrl: server.origin, tokenStore: store });
    const error = await rejectionOf(signedOut.chats.list({ target: 'section', objectId: SECTION_UUID }));
    expect(AuthRequiredError.isInstance(error)).toBe(true);
    expect(store.getToken()).toBeNull();
  });

  it('AI14: passes the signal through', async () => {
    server.handle(() => {});
    const controller = new AbortController();
    const call = client().chats.list(
      { target: 'section', objectId: SECTION_UUID },
      { signal: controller.signal },
    );
    await server.nextRequest();
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'aborted' });
  });
});

describe('chats.create', () => {
  it('AI4: POSTs chats/ with target, object_id and document_uuid, and returns the chat', async () => {
    server.handle((_req, res) => reply(res, 201, chatJson({ title: 'Untitled Chat' })));
    const chat = await client().chats.create({
      target: 'section',
      objectId: SECTION_UUID,
      documentUuid: DOC_UUID,
    });
    expect(server.last()).toMatchObject({ method: 'POST', url: '/api/v1/chats/' });
    expect(jsonBody(server.last())).toEqual({
      target: 'section',
      object_id: SECTION_UUID,
      document_uuid: DOC_UUID,
    });
    expect(chat).toEqual({ ...expected, title: 'Untitled Chat' });
  });

  it('AI4: leaves document_uuid out when not given, and reads an answer under data or with a bare uuid', async () => {
    server.handle((_req, res) => reply(res, 201, { data: { uuid: 'new-chat' } }));
    const chat = await client().chats.create({ target: 'document', objectId: DOC_UUID });
    expect(jsonBody(server.last())).toEqual({ target: 'document', object_id: DOC_UUID });
    expect(chat).toEqual({
      id: 'new-chat',
      title: 'Untitled Chat',
      createdAt: null,
      updatedAt: null,
      target: 'document',
      objectId: DOC_UUID,
      documentUuid: DOC_UUID,
    });
  });

  it('AI9: an answer with a target outside the three is a ResponseValidationError', async () => {
    server.handle((_req, res) => reply(res, 201, chatJson({ target: 'chapter' })));
    const error = await rejectionOf(client().chats.create({ target: 'section', objectId: SECTION_UUID }));
    expect(ResponseValidationError.isInstance(error)).toBe(true);
  });

  it('AI5: refuses a missing object id before sending', async () => {
    const error = await rejectionOf(client().chats.create({ target: 'section' } as never));
    expect(InvalidInputError.isInstance(error)).toBe(true);
    expect(server.requests).toHaveLength(0);
  });
});

describe('client.chatSession', () => {
  function fakeSocket() {
    const clock = new ManualClock();
    const sockets = new FakeChatServer({ clock });
    return { clock, sockets };
  }

  it("AI20, AI21: connects to the client's server with the token store's current token", () => {
    const { clock, sockets } = fakeSocket();
    const store = new MemoryTokenStore({ token: 'first' });
    const planwright = createPlanwrightClient({
      baseUrl: 'https://plans.example.com/app',
      tokenStore: store,
    });
    const session = planwright.chatSession(
      { documentUuid: DOC_UUID, sectionUuid: SECTION_UUID },
      { socketFactory: sockets.factory, clock, logger: { warn: () => {}, error: () => {} } },
    );
    store.setSession({ token: 'second' });
    session.connect();
    expect(sockets.last.url).toBe(
      `wss://plans.example.com/app/ws/document/${DOC_UUID}/section/${SECTION_UUID}/chat/`,
    );
    clock.advance(0);
    // The token travels in the first frame, never in the URL (C3, C7).
    expect(JSON.parse(sockets.last.received[0] ?? '')).toEqual({ type: 'authenticate', token: 'second' });
    expect(session.getSnapshot().scope).toMatchObject({ documentUuid: DOC_UUID, sectionUuid: SECTION_UUID });
    session.dispose();
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("AI20: a relative base URL is resolved against the page's address", () => {
    vi.stubGlobal('location', { href: 'https://app.example.com/documents/1/edit' });
    const { clock, sockets } = fakeSocket();
    const store = new MemoryTokenStore({ token: 'tok' });
    for (const baseUrl of ['', '/planwright']) {
      const session = createPlanwrightClient({ baseUrl, tokenStore: store }).chatSession(
        { documentUuid: DOC_UUID },
        { socketFactory: sockets.factory, clock },
      );
      session.connect();
      session.dispose();
    }
    expect(sockets.connections.map((socket) => socket.url)).toEqual([
      `wss://app.example.com/ws/document/${DOC_UUID}/chat/`,
      `wss://app.example.com/planwright/ws/document/${DOC_UUID}/chat/`,
    ]);
  });

  it('AI21: without a token the session reports that the user is not signed in', () => {
    const { clock, sockets } = fakeSocket();
    const planwright = createPlanwrightClient({ baseUrl: 'http://localhost:8000' });
    const session = planwright.chatSession(
      { documentUuid: DOC_UUID },
      { socketFactory: sockets.factory, clock },
    );
    session.connect();
    expect(sockets.connections).toHaveLength(0);
    expect(session.getSnapshot().error).toBe('You are not authenticated. Please log in.');
  });
});
