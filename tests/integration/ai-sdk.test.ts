import { readFileSync } from 'node:fs';
import {
  AI_TEXTS,
  ApiError,
  AuthRequiredError,
  createPlanwrightClient,
  type DocumentDetail,
  InvalidInputError,
  type PlanwrightClient,
  TRANSFORM_ACTIONS,
  type TransformAction,
} from '@planwright/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath } from '../support/corpus.js';
import { apiErrorOf, rejectionOf, signUpWithSdk } from '../support/sdk-accounts.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** The transform actions the offline provider does (the others need a model, AI28). */
const OFFLINE_ACTIONS: readonly TransformAction[] = ['fix_grammar', 'simplify', 'shorten'];

/**
 * The SDK's AI calls (`client.ai`, `client.chats`; rules AI1–AI21 in packages/sdk/src/resources/ai-chats-SPEC.md)
 * against the real server over real HTTP, with its default offline provider: no network, real answers.
 */
const CALLS_PER_MINUTE = 100_000;

/** The real time, but never the same millisecond twice: chats made back to back still list in order. */
let lastTick = 0;
const serverNow = () => {
  lastTick = Math.max(Date.now(), lastTick + 1);
  return new Date(lastTick);
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    env: { PLANWRIGHT_AI_PROVIDER: 'offline', PLANWRIGHT_AI_CALLS_PER_MINUTE: String(CALLS_PER_MINUTE) },
    now: serverNow,
  });
});
afterAll(async () => {
  await server?.close();
});

let counter = 0;
/** A new verified, signed-in account. */
async function signUp(prefix: string): Promise<PlanwrightClient> {
  return (await signUpWithSdk(server, `${prefix}-${++counter}@example.com`)).client;
}

const anonymous = () => createPlanwrightClient({ baseUrl: server.url });

interface Scope {
  document: DocumentDetail;
  sectionUuid: string;
  subsectionUuid: string;
}

/** A new document from the default blueprint, with its first section and subsection. */
async function documentOf(client: PlanwrightClient): Promise<Scope> {
  const document = await client.documents.create();
  const section = document.sections[0];
  const subsection = section?.subsections[0];
  if (!section || !subsection) throw new Error('the default blueprint gave a document without subsections');
  return { document, sectionUuid: section.uuid, subsectionUuid: subsection.uuid };
}

let owner: PlanwrightClient;
let stranger: PlanwrightClient;
let scope: Scope;
beforeAll(async () => {
  owner = await signUp('ai-owner');
  stranger = await signUp('ai-stranger');
  scope = await documentOf(owner);
});

describe('ai.provider and ai.usage', () => {
  it('AI6: the offline provider, labelled as such, with the rate limit', async () => {
    const info = await owner.ai.provider();
    expect(info).toMatchObject({
      name: 'offline',
      offline: true,
      supports: { webAccess: expect.any(Boolean), research: expect.any(Boolean), tools: expect.any(Boolean) },
      callsPerMinute: CALLS_PER_MINUTE,
    });
    expect(info.label).not.toBe('');
    // AI28: without a model only the three rule-based actions are available, and they run offline.
    expect(info.actions.filter((entry) => entry.available)).toEqual(
      OFFLINE_ACTIONS.map((action) => ({ action, available: true, offline: true })),
    );
  });

  it('AI7, AI13: a transform counts in the usage of its document and of the user', async () => {
    const client = await signUp('ai-usage');
    const { document } = await documentOf(client);
    const before = await client.ai.usage({ documentUuid: document.uuid });
    expect(before).toEqual({
      documentUuid: document.uuid,
      total: { calls: 0, inputTokens: 0, outputTokens: 0 },
      last30Days: { calls: 0, inputTokens: 0, outputTokens: 0 },
    });
    await client.ai.transformText({
      text: 'we sell plan',
      action: 'fix_grammar',
      documentUuid: document.uuid,
    });
    await client.ai.transformText({ text: 'not for a document', action: 'shorten' });
    const after = await client.ai.usage({ documentUuid: document.uuid });
    expect(after.total.calls).toBe(1);
    expect(after.last30Days.calls).toBe(1);
    const all = await client.ai.usage();
    expect(all.documentUuid).toBeNull();
    expect(all.total.calls).toBe(2);
  });
});

describe('ai.transformText', () => {
  it.each(TRANSFORM_ACTIONS.filter((action) => !OFFLINE_ACTIONS.includes(action)))(
    'AI28: %s needs a model: 409 ai_model_required, in words the user can act on',
    async (action) => {
      const error = await rejectionOf(
        owner.ai.transformText({ text: 'Our company sells business plans to founders.', action }),
      );
      expect(ApiError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        status: 409,
        code: 'ai_model_required',
        serverCode: 'ai_model_required',
        message: AI_TEXTS.modelRequired,
      });
    },
  );

  it.each(OFFLINE_ACTIONS)('AI13: %s gives text from the offline provider', async (action) => {
    const result = await owner.ai.transformText({
      text: 'Our company sells business plans to founders.',
      action,
      customPrompt: 'Keep it brief.',
      documentUuid: scope.document.uuid,
    });
    expect(typeof result.transformedText).toBe('string');
    expect(result.transformedText.trim()).not.toBe('');
    expect(result.provider).toMatchObject({ name: 'offline', offline: true });
  });

  it('AI10: a blank selection is "No text selected" and is not sent (usage unchanged)', async () => {
    const client = await signUp('ai-blank');
    const error = await rejectionOf(client.ai.transformText({ text: ' \n ', action: 'improve' }));
    expect(InvalidInputError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(AI_TEXTS.noTextSelected);
    expect((await client.ai.usage()).total.calls).toBe(0);
  });

  it('AI12: a text over the limit is refused by the SDK; a zero-width-only text reaches the server', async () => {
    const tooLong = await rejectionOf(
      owner.ai.transformText({ text: 'x'.repeat(100_001), action: 'improve' }),
    );
    expect(InvalidInputError.isInstance(tooLong)).toBe(true);
    // U+200B is not whitespace to `trim()`: whatever the server answers, it is never a 5xx.
    try {
      const result = await owner.ai.transformText({ text: '\u200b', action: 'improve' });
      expect(typeof result.transformedText).toBe('string');
    } catch (error) {
      expect(ApiError.isInstance(error)).toBe(true);
      expect((error as ApiError).status).toBeLessThan(500);
      expect((error as ApiError).message).toBe((error as ApiError).detail);
    }
  });

  it('AI16: the big list of naughty strings never gives a 5xx', async () => {
    const strings = JSON.parse(readFileSync(corpusPath('hostile-strings/blns.json'), 'utf8')) as string[];
    expect(strings.length).toBeGreaterThan(100);
    const failures: string[] = [];
    let transformed = 0;
    for (const [index, text] of strings.entries()) {
      const action = OFFLINE_ACTIONS[index % OFFLINE_ACTIONS.length] ?? 'fix_grammar';
      try {
        const result = await owner.ai.transformText({ text, action, customPrompt: text });
        expect(typeof result.transformedText).toBe('string');
        transformed++;
      } catch (error) {
        if (InvalidInputError.isInstance(error) && text.trim() === '') continue;
        if (ApiError.isInstance(error) && error.status < 500 && error.detail) continue;
        failures.push(`${index} ${JSON.stringify(text).slice(0, 60)}: ${String(error)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(transformed).toBeGreaterThan(strings.length / 2);
  });
});

describe('ai.transformStructured', () => {
  it('AI13: transforms a subsection title and content', async () => {
    const result = await owner.ai.transformStructured({
      action: 'fix_grammar',
      documentUuid: scope.document.uuid,
      items: [
        {
          subsectionUuid: scope.subsectionUuid,
          includeTitle: true,
          titleText: 'our team',
          contentHtml: '<p>we are <strong>three</strong> people</p><ul><li>ada</li><li>grace</li></ul>',
        },
      ],
    });
    expect(result.provider.offline).toBe(true);
    expect(result.items).toHaveLength(1);
    expect(result.items[0]?.subsectionUuid).toBe(scope.subsectionUuid);
    expect(result.items[0]?.title.trim()).not.toBe('');
    expect(result.items[0]?.contentHtml).toContain('<');
  });

  it('AI10: items with no visible text are "No text selected" before sending', async () => {
    const error = await rejectionOf(
      owner.ai.transformStructured({
        action: 'improve',
        items: [
          {
            subsectionUuid: scope.subsectionUuid,
            includeTitle: false,
            titleText: 'x',
            contentHtml: '<p></p>',
          },
        ],
      }),
    );
    expect((error as Error).message).toBe('No text selected');
  });

  it('AI12: a subsection id that is no uuid is the server 400, its detail as the message', async () => {
    const error = await apiErrorOf(
      owner.ai.transformStructured({
        action: 'improve',
        items: [
          { subsectionUuid: 'not-a-uuid', includeTitle: true, titleText: 'T', contentHtml: '<p>x</p>' },
        ],
      }),
      400,
    );
    expect(error.message).toBe(error.detail);
    expect(error.message).not.toBe('');
  });
});

describe('chats', () => {
  it('AI1, AI4: chats made about the document, a section and a subsection are listed, newest first', async () => {
    const client = await signUp('ai-chats');
    const own = await documentOf(client);
    const documentChat = await client.chats.create({ target: 'document', objectId: own.document.uuid });
    expect(documentChat).toMatchObject({
      title: 'Untitled Chat',
      target: 'document',
      objectId: own.document.uuid,
      documentUuid: own.document.uuid,
    });
    expect(documentChat.createdAt).not.toBeNull();
    const sectionChat = await client.chats.create({ target: 'section', objectId: own.sectionUuid });
    expect(sectionChat).toMatchObject({ target: 'section', documentUuid: own.document.uuid });
    const subsectionChat = await client.chats.create({
      target: 'subsection',
      objectId: own.subsectionUuid,
      documentUuid: own.document.uuid,
    });
    expect(subsectionChat.objectId).toBe(own.subsectionUuid);

    const second = await client.chats.create({ target: 'document', objectId: own.document.uuid });
    const listed = await client.chats.list({ target: 'document', objectId: own.document.uuid });
    expect(listed.items.map((chat) => chat.id)).toEqual([second.id, documentChat.id]);
    expect(listed.total).toBe(2);
    const one = await client.chats.list({ target: 'document', objectId: own.document.uuid, pageSize: 1 });
    expect(one.items.map((chat) => chat.id)).toEqual([second.id]);
    const sections = await client.chats.list({
      target: 'section',
      objectId: own.sectionUuid,
      documentUuid: own.document.uuid,
    });
    expect(sections.items).toEqual([sectionChat]);
  });

  it('AI5: an object id that is no uuid is the server 400', async () => {
    await apiErrorOf(owner.chats.list({ target: 'section', objectId: 'not-a-uuid' }), 400);
  });
});

describe('ai.context', () => {
  it('AI8: the prompt for a section chat ends with the message', async () => {
    const context = await owner.ai.context(scope.document.uuid, {
      sectionUuid: scope.sectionUuid,
      message: 'What should the summary say?',
      webAccess: false,
    });
    expect(context.provider).toMatchObject({ name: 'offline', offline: true });
    expect(context.budgetTokens).toBeGreaterThan(0);
    expect(context.totalTokens).toBeGreaterThan(0);
    expect(typeof context.overBudget).toBe('boolean');
    expect(context.system).not.toBe('');
    expect(context.messages.at(-1)).toEqual({ role: 'user', content: 'What should the summary say?' });
    expect(context.parts.length).toBeGreaterThan(0);
  });

  it('AI8, AI15: a section the document lacks is a 404', async () => {
    await apiErrorOf(
      owner.ai.context(scope.document.uuid, { sectionUuid: '00000000-0000-4000-8000-000000000000' }),
      404,
    );
  });
});

describe("another user's document", () => {
  it('AI15: every call naming it is a 404 ApiError, and listing its chats shows none', async () => {
    await owner.chats.create({ target: 'document', objectId: scope.document.uuid });
    const uuid = scope.document.uuid;
    await apiErrorOf(stranger.chats.create({ target: 'document', objectId: uuid }), 404);
    await apiErrorOf(stranger.chats.create({ target: 'section', objectId: scope.sectionUuid }), 404);
    await apiErrorOf(
      stranger.chats.create({ target: 'subsection', objectId: scope.subsectionUuid, documentUuid: uuid }),
      404,
    );
    await apiErrorOf(stranger.chats.list({ target: 'document', objectId: uuid }), 404);
    await apiErrorOf(stranger.ai.usage({ documentUuid: uuid }), 404);
    await apiErrorOf(stranger.ai.transformText({ text: 'x', action: 'improve', documentUuid: uuid }), 404);
    await apiErrorOf(
      stranger.ai.transformStructured({
        action: 'improve',
        documentUuid: uuid,
        items: [
          { subsectionUuid: scope.subsectionUuid, includeTitle: true, titleText: 'T', contentHtml: '' },
        ],
      }),
      404,
    );
    const context = await apiErrorOf(stranger.ai.context(uuid), 404);
    expect(context.serverCode).toBe('not_found');
  });
});

describe('anonymous', () => {
  it.each([
    [
      'chats.list',
      (c: PlanwrightClient) => c.chats.list({ target: 'document', objectId: scope.document.uuid }),
    ],
    [
      'chats.create',
      (c: PlanwrightClient) => c.chats.create({ target: 'document', objectId: scope.document.uuid }),
    ],
    ['ai.provider', (c: PlanwrightClient) => c.ai.provider()],
    ['ai.usage', (c: PlanwrightClient) => c.ai.usage()],
    ['ai.transformText', (c: PlanwrightClient) => c.ai.transformText({ text: 'x', action: 'improve' })],
    [
      'ai.transformStructured',
      (c: PlanwrightClient) =>
        c.ai.transformStructured({
          action: 'improve',
          items: [
            { subsectionUuid: scope.subsectionUuid, includeTitle: true, titleText: 'T', contentHtml: '' },
          ],
        }),
    ],
    ['ai.context', (c: PlanwrightClient) => c.ai.context(scope.document.uuid)],
  ])('AI15: %s is an AuthRequiredError', async (_name, call) => {
    const error = await rejectionOf(call(anonymous()));
    expect(AuthRequiredError.isInstance(error), String(error)).toBe(true);
  });
});
