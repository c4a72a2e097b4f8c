import {
  AI_TEXTS,
  type AiContext,
  type AiProviderInfo,
  ApiError,
  AuthRequiredError,
  createPlanwrightClient,
  ERROR_CODES,
  InvalidInputError,
  MemoryTokenStore,
  NetworkError,
  ResponseValidationError,
  TRANSFORM_ACTIONS,
  type TransformTextResult,
} from '@planwright/sdk';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { jsonBody, rejectionOf } from '../support/allauth.js';
import { closedPort, reply, useRecordingServer } from '../support/recording-server.js';
import { DOC_UUID, SECTION_UUID, SUBSECTION_UUID } from '../support/workspace-fixtures.js';

const offline = {
  name: 'offline',
  model: 'offline-drafts',
  label: 'Offline drafts (no AI model)',
  offline: true,
};
const providerSummary = { name: 'offline', model: 'offline-drafts', label: offline.label, offline: true };

const server = useRecordingServer((_req, res) =>
  reply(res, 200, { transformed_text: 'Better text.', provider: offline }),
);

const client = () =>
  createPlanwrightClient({ baseUrl: server.origin, tokenStore: new MemoryTokenStore({ token: 'tok' }) });

describe('ai.provider', () => {
  it('AI6: GETs apps/ai/provider/ and turns the answer into camelCase', async () => {
    server.handle((_req, res) =>
      reply(res, 200, {
        ...offline,
        supports: { web_access: false, research: false, tools: true },
        calls_per_minute: 20,
      }),
    );
    const info = await client().ai.provider();
    expectTypeOf(info).toEqualTypeOf<AiProviderInfo>();
    expect(server.last()).toMatchObject({ method: 'GET', url: '/api/v1/apps/ai/provider/' });
    expect(server.last().headers['x-session-token']).toBe('tok');
    expect(info).toEqual({
      ...providerSummary,
      supports: { webAccess: false, research: false, tools: true },
      callsPerMinute: 20,
      // A server that does not list its actions is taken to do all eight (AI28).
      actions: TRANSFORM_ACTIONS.map((action) => ({ action, available: true, offline: true })),
    });
  });

  it('AI28: the actions the server lists, in TRANSFORM_ACTIONS order; unknown names are left out', async () => {
    const offlineOnes = new Set(['fix_grammar', 'simplify', 'shorten']);
    server.handle((_req, res) =>
      reply(res, 200, {
        ...offline,
        supports: { web_access: false, research: false, tools: true },
        calls_per_minute: 20,
        actions: [
          { action: 'summarise', available: true, offline: true },
          ...[...TRANSFORM_ACTIONS].reverse().map((action) => ({
            action,
            available: offlineOnes.has(action),
            offline: offlineOnes.has(action),
          })),
        ],
      }),
    );
    const info = await client().ai.provider();
    expect(info.actions).toEqual(
      TRANSFORM_ACTIONS.map((action) => ({
        action,
        available: offlineOnes.has(action),
        offline: offlineOnes.has(action),
      })),
    );
  });

  it('AI28: a malformed actions list is a ResponseValidationError', async () => {
    server.handle((_req, res) =>
      reply(res, 200, {
        ...offline,
        supports: { web_access: false, research: false, tools: true },
        calls_per_minute: 20,
        actions: [{ action: 'improve', available: 'yes' }],
      }),
    );
    expect(ResponseValidationError.isInstance(await rejectionOf(client().ai.provider()))).toBe(true);
  });

  it('AI9: an answer without supports is a ResponseValidationError', async () => {
    server.handle((_req, res) => reply(res, 200, { ...offline, calls_per_minute: 20 }));
    const error = await rejectionOf(client().ai.provider());
    expect(ResponseValidationError.isInstance(error)).toBe(true);
  });
});

describe('ai.usage', () => {
  const totals = (calls: number) => ({ calls, input_tokens: calls * 10, output_tokens: calls * 5 });

  it('AI7: GETs apps/ai/usage/ with document_uuid and returns the totals', async () => {
    server.handle((_req, res) =>
      reply(res, 200, { document_uuid: DOC_UUID, total: totals(3), last_30_days: totals(2) }),
    );
    const usage = await client().ai.usage({ documentUuid: DOC_UUID });
    expect(server.last().url).toBe(`/api/v1/apps/ai/usage/?document_uuid=${DOC_UUID}`);
    expect(usage).toEqual({
      documentUuid: DOC_UUID,
      total: { calls: 3, inputTokens: 30, outputTokens: 15 },
      last30Days: { calls: 2, inputTokens: 20, outputTokens: 10 },
    });
  });

  it('AI7: without a document asks for all and reads a null document', async () => {
    server.handle((_req, res) =>
      reply(res, 200, { document_uuid: null, total: totals(0), last_30_days: totals(0) }),
    );
    const usage = await client().ai.usage();
    expect(server.last().url).toBe('/api/v1/apps/ai/usage/');
    expect(usage.documentUuid).toBeNull();
  });

  it('AI9: negative counts are a ResponseValidationError', async () => {
    server.handle((_req, res) =>
      reply(res, 200, { document_uuid: null, total: totals(-1), last_30_days: totals(0) }),
    );
    expect(ResponseValidationError.isInstance(await rejectionOf(client().ai.usage()))).toBe(true);
  });
});

describe('ai.transformText', () => {
  it('AI13: POSTs apps/ai/transform/ with text, action and custom_prompt; returns the text and provider', async () => {
    const result = await client().ai.transformText({
      text: 'bad text',
      action: 'improve',
      customPrompt: 'Keep it short.',
      documentUuid: DOC_UUID,
    });
    expectTypeOf(result).toEqualTypeOf<TransformTextResult>();
    expect(server.last()).toMatchObject({ method: 'POST', url: '/api/v1/apps/ai/transform/' });
    expect(jsonBody(server.last())).toEqual({
      text: 'bad text',
      action: 'improve',
      custom_prompt: 'Keep it short.',
      document_uuid: DOC_UUID,
    });
    expect(result).toEqual({ transformedText: 'Better text.', provider: providerSummary });
  });

  it('AI11: a blank custom prompt and a missing document are not sent', async () => {
    await client().ai.transformText({ text: 'x', action: 'shorten', customPrompt: '   ' });
    expect(jsonBody(server.last())).toEqual({ text: 'x', action: 'shorten' });
  });

  it.each(TRANSFORM_ACTIONS)('AI11: sends the action %s', async (action) => {
    await client().ai.transformText({ text: 'x', action });
    expect(jsonBody(server.last())).toMatchObject({ action });
  });

  it.each(['', '   ', '\n\t', undefined, null])(
    'AI10: text %j is "No text selected" with no request',
    async (text) => {
      const error = await rejectionOf(client().ai.transformText({ text, action: 'improve' } as never));
      expect(InvalidInputError.isInstance(error)).toBe(true);
      expect((error as Error).message).toBe(AI_TEXTS.noTextSelected);
      expect((error as InvalidInputError).issues[0]?.path).toEqual(['text']);
      expect(server.requests).toHaveLength(0);
    },
  );

  it.each([
    [{ text: 'x', action: 'translate' }, 'action'],
    [{ text: 'x'.repeat(100_001), action: 'improve' }, 'text'],
    [{ text: 'x', action: 'improve', customPrompt: 'p'.repeat(4_001) }, 'customPrompt'],
    [{ text: 'x', action: 'improve', documentUuid: '' }, 'documentUuid'],
    [{ text: 42, action: 'improve' }, 'text'],
  ])('AI11: refuses %#, naming %s, before sending', async (input, field) => {
    const error = await rejectionOf(client().ai.transformText(input as never));
    expect(InvalidInputError.isInstance(error)).toBe(true);
    expect((error as InvalidInputError).issues[0]?.path).toEqual([field]);
    expect(server.requests).toHaveLength(0);
  });

  it.each([
    [
      429,
      {
        detail: 'The AI service is busy right now. Please wait a minute and try again.',
        code: 'ai_rate_limited',
      },
    ],
    [504, { detail: 'The AI took too long to answer. Please try again.', code: 'ai_timeout' }],
    [404, { detail: 'Document not found.', code: 'not_found' }],
    [400, { detail: 'No text selected', code: 'no_text_selected' }],
  ])('AI12: a %i answer rejects with the server detail as the message', async (status, body) => {
    server.handle((_req, res) => reply(res, status, body));
    const error = await rejectionOf(client().ai.transformText({ text: 'x', action: 'improve' }));
    expect(ApiError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status, message: body.detail, detail: body.detail, serverCode: body.code });
    expect((error as ApiError).cause).toSatisfy(ApiError.isInstance);
  });

  it.each([
    ['an HTML page', 'text/html', '<html><body>Bad gateway</body></html>'],
    ['a blank detail', 'application/json', JSON.stringify({ detail: '  ' })],
    ['no body', 'text/plain', ''],
  ])('AI12: a failure with %s says "Failed to transform text"', async (_name, type, body) => {
    server.handle((_req, res) => reply(res, 502, body, { 'content-type': type }));
    const error = await rejectionOf(client().ai.transformText({ text: 'x', action: 'improve' }));
    expect(ApiError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 502, message: AI_TEXTS.transformFailed, isRetryable: true });
  });

  it('AI28: 409 ai_model_required rejects with the ai_model_required code, not retryable', async () => {
    server.handle((_req, res) =>
      reply(res, 409, { detail: AI_TEXTS.modelRequired, code: 'ai_model_required' }),
    );
    const error = await rejectionOf(client().ai.transformText({ text: 'x', action: 'extend' }));
    expect(ApiError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      status: 409,
      code: ERROR_CODES.AI_MODEL_REQUIRED,
      serverCode: 'ai_model_required',
      message: 'This action needs an AI model. Ask your administrator to connect one.',
      isRetryable: false,
    });
    server.handle((_req, res) => reply(res, 409, { code: 'ai_model_required' }));
    const bare = await rejectionOf(client().ai.transformText({ text: 'x', action: 'extend' }));
    expect(bare).toMatchObject({ message: AI_TEXTS.modelRequired, code: 'ai_model_required' });
  });

  it('AI12: a 401 stays an AuthRequiredError and a refused connection a NetworkError', async () => {
    server.handle((_req, res) =>
      reply(res, 401, { detail: 'Authentication credentials were not provided.' }),
    );
    const signedOut = await rejectionOf(client().ai.transformText({ text: 'x', action: 'improve' }));
    expect(AuthRequiredError.isInstance(signedOut)).toBe(true);

    const nowhere = createPlanwrightClient({ baseUrl: `http://127.0.0.1:${await closedPort()}` });
    const error = await rejectionOf(nowhere.ai.transformText({ text: 'x', action: 'improve' }));
    expect(NetworkError.isInstance(error)).toBe(true);
  });

  it('AI9: an answer without transformed_text is a ResponseValidationError', async () => {
    server.handle((_req, res) => reply(res, 200, { provider: offline }));
    const error = await rejectionOf(client().ai.transformText({ text: 'x', action: 'improve' }));
    expect(ResponseValidationError.isInstance(error)).toBe(true);
  });

  it('AI14: the signal aborts the transform', async () => {
    server.handle(() => {});
    const controller = new AbortController();
    const call = client().ai.transformText({ text: 'x', action: 'improve' }, { signal: controller.signal });
    await server.nextRequest();
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'aborted' });
  });
});

describe('ai.transformStructured', () => {
  const item = (overrides: Record<string, unknown> = {}) => ({
    subsectionUuid: SUBSECTION_UUID,
    includeTitle: true,
    titleText: 'Overview',
    contentHtml: '<p>We sell plans.</p>',
    ...overrides,
  });

  it('AI13: POSTs mode structured with snake_case items; returns camelCase items', async () => {
    server.handle((_req, res) =>
      reply(res, 200, {
        items: [{ subsection_uuid: SUBSECTION_UUID, title: 'Summary', content_html: '<p>Plans, sold.</p>' }],
        provider: offline,
      }),
    );
    const result = await client().ai.transformStructured({
      action: 'professional',
      customPrompt: 'Formal.',
      items: [item()],
    });
    expect(jsonBody(server.last())).toEqual({
      mode: 'structured',
      action: 'professional',
      custom_prompt: 'Formal.',
      items: [
        {
          subsection_uuid: SUBSECTION_UUID,
          include_title: true,
          title_text: 'Overview',
          content_html: '<p>We sell plans.</p>',
        },
      ],
    });
    expect(result).toEqual({
      items: [{ subsectionUuid: SUBSECTION_UUID, title: 'Summary', contentHtml: '<p>Plans, sold.</p>' }],
      provider: providerSummary,
    });
  });

  it.each([
    ['no items', []],
    ['an empty paragraph and an excluded title', [item({ includeTitle: false, contentHtml: '<p> </p>' })]],
    ['only non-breaking spaces', [item({ titleText: ' ', contentHtml: '<p>&nbsp;</p><br>' })]],
  ])('AI10: %s is "No text selected" with no request', async (_name, items) => {
    const error = await rejectionOf(client().ai.transformStructured({ action: 'improve', items }));
    expect(InvalidInputError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe('No text selected');
    expect(server.requests).toHaveLength(0);
  });

  it('AI10: a title alone is text enough', async () => {
    server.handle((_req, res) => reply(res, 200, { items: [], provider: offline }));
    await client().ai.transformStructured({ action: 'improve', items: [item({ contentHtml: '' })] });
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    [{ items: Array.from({ length: 101 }, () => item()) }, ['items']],
    [{ items: [item({ titleText: 't'.repeat(501) })] }, ['items', 0, 'titleText']],
    [{ items: [item({ includeTitle: 'yes' })] }, ['items', 0, 'includeTitle']],
    [{ items: [item({ subsectionUuid: '' })] }, ['items', 0, 'subsectionUuid']],
  ])('AI11: refuses bad items (%#) before sending', async (input, path) => {
    const error = await rejectionOf(
      client().ai.transformStructured({ action: 'improve', ...input } as never),
    );
    expect(InvalidInputError.isInstance(error)).toBe(true);
    expect((error as InvalidInputError).issues[0]?.path).toEqual(path);
    expect(server.requests).toHaveLength(0);
  });

  it('AI12: a refusal names the server detail', async () => {
    server.handle((_req, res) =>
      reply(res, 400, { detail: 'Invalid input: items.0.content_html', code: 'invalid', errors: [] }),
    );
    const error = await rejectionOf(client().ai.transformStructured({ action: 'improve', items: [item()] }));
    expect(error).toMatchObject({ status: 400, message: 'Invalid input: items.0.content_html' });
  });
});

describe('ai.context', () => {
  const contextJson = {
    provider: { ...offline, supports: { web_access: true, research: false, tools: true } },
    budget_tokens: 24_000,
    total_tokens: 812,
    over_budget: false,
    system: 'You help write plans.',
    messages: [
      { role: 'user', content: 'Earlier question' },
      {
        role: 'assistant',
        content: 'Proposed.',
        tool_calls: [{ tool_call_id: 't1', tool_name: 'propose_full_subsection', input: { a: 1 } }],
      },
      {
        role: 'tool',
        results: [{ tool_call_id: 't1', tool_name: 'propose_full_subsection', decision: 'accepted' }],
      },
      { role: 'user', content: 'Make it shorter' },
    ],
    parts: [{ name: 'scope', tokens: 40, truncated: false, text: 'Section: Market' }],
  };

  it('AI8: GETs documents/{uuid}/ai/context/ with the scope, message and switches', async () => {
    server.handle((_req, res) => reply(res, 200, contextJson));
    const context = await client().ai.context(DOC_UUID, {
      sectionUuid: SECTION_UUID,
      subsectionUuid: SUBSECTION_UUID,
      message: 'Make it shorter & crisper?',
      webAccess: true,
      research: false,
    });
    expectTypeOf(context).toEqualTypeOf<AiContext>();
    const url = new URL(server.last().url, 'http://x');
    expect(url.pathname).toBe(`/api/v1/documents/${DOC_UUID}/ai/context/`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      section: SECTION_UUID,
      subsection: SUBSECTION_UUID,
      message: 'Make it shorter & crisper?',
      web_access: 'on',
      research: 'off',
    });
    expect(context).toEqual({
      provider: { ...providerSummary, supports: { webAccess: true, research: false, tools: true } },
      budgetTokens: 24_000,
      totalTokens: 812,
      overBudget: false,
      system: 'You help write plans.',
      messages: [
        { role: 'user', content: 'Earlier question' },
        {
          role: 'assistant',
          content: 'Proposed.',
          toolCalls: [{ toolCallId: 't1', toolName: 'propose_full_subsection', input: { a: 1 } }],
        },
        {
          role: 'tool',
          results: [{ toolCallId: 't1', toolName: 'propose_full_subsection', decision: 'accepted' }],
        },
        { role: 'user', content: 'Make it shorter' },
      ],
      parts: [{ name: 'scope', tokens: 40, truncated: false, text: 'Section: Market' }],
    });
  });

  it.each(['', '.', '..'])('AI8: refuses the document id %j before sending', async (uuid) => {
    expect(InvalidInputError.isInstance(await rejectionOf(client().ai.context(uuid)))).toBe(true);
    expect(server.requests).toHaveLength(0);
  });

  it('AI8: encodes a hostile document id as one path segment', async () => {
    server.handle((_req, res) => reply(res, 404, { detail: 'Document not found.', code: 'not_found' }));
    const error = await rejectionOf(client().ai.context('../../health?x=1#y'));
    expect(server.last().url).toBe('/api/v1/documents/..%2F..%2Fhealth%3Fx%3D1%23y/ai/context/');
    expect(error).toMatchObject({ status: 404 });
  });

  it('AI8: a message over 20 000 characters is refused before sending', async () => {
    const error = await rejectionOf(client().ai.context(DOC_UUID, { message: 'm'.repeat(20_001) }));
    expect((error as InvalidInputError).issues[0]?.path).toEqual(['message']);
    expect(server.requests).toHaveLength(0);
  });

  it('AI9: a message with an unknown role is a ResponseValidationError', async () => {
    server.handle((_req, res) =>
      reply(res, 200, { ...contextJson, messages: [{ role: 'system', content: 'x' }] }),
    );
    expect(ResponseValidationError.isInstance(await rejectionOf(client().ai.context(DOC_UUID)))).toBe(true);
  });
});
