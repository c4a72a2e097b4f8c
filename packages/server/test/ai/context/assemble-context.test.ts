import { randomUUID } from 'node:crypto';
import { createDocumentContent, isNodeId } from '@planwright/sdk/model';
import { describe, expect, it } from 'vitest';
import {
  assembleChatContext,
  CONTEXT_PART_NAMES,
  ContextScopeError,
  type ContextSettings,
} from '../../../src/ai/context/assemble-context.js';
import { countTokens } from '../../../src/ai/context/token-count.js';
import {
  bodyNodeIds,
  buildDocument,
  contextInput,
  hostileStrings,
  markersIn,
  OFFLINE_PROVIDER,
  paragraph,
  testUuid,
} from './context-fixtures.js';

// Uuids in reading order: section 1 = 1, its subsections 2, 3, 4; section 2 = 5, its subsection 6; section 3 = 7.
const doc = buildDocument({
  sections: [
    {
      title: 'Market',
      paragraphs: ['The market is large.'],
      subsections: [
        { title: 'Size', paragraphs: ['About 2 million shops.', 'Growing 4 % a year.'], finalized: true },
        { title: 'Trends', paragraphs: ['Online ordering rises.'] },
        { title: 'Customers', paragraphs: [''], finalized: true },
      ],
    },
    { title: 'Team', subsections: [{ title: 'Founders', paragraphs: ['Ada and Grace.'] }] },
    { title: 'Finance', paragraphs: ['Break-even in year three.'], subsections: [] },
  ],
});
const part = (context: ReturnType<typeof assembleChatContext>, name: string) =>
  context.parts.find((candidate) => candidate.name === name)?.text ?? '';

describe('assembleChatContext: order and content', () => {
  it('CX2 lists the nine parts in order and builds system and messages from them', () => {
    const settings = {
      sections: new Map<string, ContextSettings>([
        [testUuid(1), { developerPrompt: 'Cite sources.', userHint: 'Describe your market.' }],
      ]),
      subsections: new Map<string, ContextSettings>([
        [testUuid(3), { developerPrompt: 'Name three trends.', userHint: 'What changes?' }],
      ]),
    };
    const context = assembleChatContext(
      contextInput(doc, {
        settings,
        scope: { target: 'subsection', sectionUuid: testUuid(1), subsectionUuid: testUuid(3) },
        history: [
          { role: 'user', content: 'Hello' },
          { role: 'assistant', content: 'Hi!', toolCalls: [] },
        ],
      }),
    );
    expect(context.parts.map((p) => p.name)).toEqual([...CONTEXT_PART_NAMES]);
    const system = context.system;
    const positions = [
      'global',
      'blueprint',
      'instructions',
      'scope_prompts',
      'outline',
      'section',
      'digest',
    ].map((name) => system.indexOf(part(context, name)));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(system.startsWith('You are the test assistant.')).toBe(true);
    expect(part(context, 'blueprint')).toContain('This plan persuades investors.');
    expect(part(context, 'scope_prompts')).toContain('Cite sources.');
    expect(part(context, 'scope_prompts')).toContain('Name three trends.');
    expect(part(context, 'scope_prompts')).toContain('What changes?');
    expect(context.messages).toEqual([
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'Hi!', toolCalls: [] },
      { role: 'user', content: 'Please improve this.' },
    ]);
    expect(context.overBudget).toBe(false);
    expect(context.parts.every((p) => !p.truncated)).toBe(true);
    expect(context.totalTokens).toBeLessThanOrEqual(context.budgetTokens);
  });

  it('CX4 the outline lists every section and subsection with uuid, finalized state and counts', () => {
    const outline = part(assembleChatContext(contextInput(doc)), 'outline');
    expect(outline).toContain('Acme plan');
    expect(outline).toContain('Progress: 2 of 4 subsections finalized.');
    expect(outline).toContain(`1. Market [section ${testUuid(1)}] — 2 of 3 subsections finalized`);
    expect(outline).toContain(`1.1 Size [subsection ${testUuid(2)}] — finalized`);
    expect(outline).toContain(`1.2 Trends [subsection ${testUuid(3)}] — not finalized`);
    expect(outline).toContain(`2. Team [section ${testUuid(5)}] — 0 of 1 subsections finalized`);
    expect(outline).toContain(`3. Finance [section ${testUuid(7)}] — 0 of 0 subsections finalized`);
  });

  it('CX5 the section text marks every body block with its real nodeId and every subsection with its uuid', () => {
    const context = assembleChatContext(
      contextInput(doc, { scope: { target: 'section', sectionUuid: testUuid(1), subsectionUuid: null } }),
    );
    const section = part(context, 'section');
    const markers = markersIn(section);
    expect(markers).toEqual(bodyNodeIds(doc, testUuid(1)));
    expect(markers.length).toBe(5);
    expect(markers.every(isNodeId)).toBe(true);
    expect(section).toContain(`[subsection_uuid ${testUuid(2)}; finalized: do not change]`);
    expect(section).toContain(`[subsection_uuid ${testUuid(3)}; not finalized]`);
    expect(section).toContain('About 2 million shops.');
    // The block follows its marker.
    const [first] = bodyNodeIds(doc, testUuid(1));
    expect(section).toContain(`[#${first}]\nThe market is large.`);
    // Other sections are in the digest, not in the section part.
    expect(section).not.toContain('Ada and Grace');
    expect(part(context, 'digest')).toContain('Ada and Grace.');
    expect(part(context, 'digest')).not.toContain('About 2 million');
  });

  it('CX5 CX6 a document chat has no section part and digests every section', () => {
    const context = assembleChatContext(contextInput(doc));
    expect(part(context, 'section')).toBe('');
    const digest = part(context, 'digest');
    for (const n of [1, 5, 7]) expect(digest).toContain(`[section ${testUuid(n)};`);
    expect(digest).toContain('Break-even in year three.');
  });

  it('CX6 the digest keeps at most 120 tokens of each section', () => {
    const long = buildDocument({
      sections: [
        { title: 'Scope', subsections: [] },
        { title: 'Long', paragraphs: ['word '.repeat(2000)], subsections: [] },
      ],
    });
    const context = assembleChatContext(
      contextInput(long, { scope: { target: 'section', sectionUuid: testUuid(1), subsectionUuid: null } }),
    );
    const line = part(context, 'digest').split('\n').at(-1) ?? '';
    expect(line.endsWith('…')).toBe(true);
    expect(countTokens(line)).toBeLessThan(120 + 40);
  });

  it('CX3 unknown or mismatched scope uuids throw ContextScopeError', () => {
    const attempt = (scope: Parameters<typeof contextInput>[1]) => () =>
      assembleChatContext(contextInput(doc, scope));
    expect(
      attempt({ scope: { target: 'section', sectionUuid: testUuid(42), subsectionUuid: null } }),
    ).toThrow(ContextScopeError);
    expect(attempt({ scope: { target: 'section', sectionUuid: null, subsectionUuid: null } })).toThrow(
      ContextScopeError,
    );
    // A section uuid is not a subsection.
    expect(
      attempt({ scope: { target: 'subsection', sectionUuid: null, subsectionUuid: testUuid(1) } }),
    ).toThrow(ContextScopeError);
    // The subsection is in another section.
    try {
      assembleChatContext(
        contextInput(doc, {
          scope: { target: 'subsection', sectionUuid: testUuid(5), subsectionUuid: testUuid(3) },
        }),
      );
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ContextScopeError);
      expect((error as ContextScopeError).part).toBe('subsection');
    }
    // Upper case matches.
    const upper = assembleChatContext(
      contextInput(doc, {
        scope: { target: 'subsection', sectionUuid: null, subsectionUuid: testUuid(3).toUpperCase() },
      }),
    );
    expect(upper.scope.subsections.map((s) => s.uuid)).toEqual([testUuid(3)]);
  });

  it('CX12 the scope brief carries the subsections in scope with their Markdown bodies', () => {
    const settings = {
      sections: new Map([[testUuid(1), { developerPrompt: 'P', userHint: 'H' }]]),
      subsections: new Map([[testUuid(2), { developerPrompt: 'SP', userHint: 'SH' }]]),
    };
    const section = assembleChatContext(
      contextInput(doc, {
        settings,
        scope: { target: 'section', sectionUuid: testUuid(1), subsectionUuid: null },
      }),
    ).scope;
    expect(section.documentTitle).toBe('Acme plan');
    expect(section.section).toEqual({
      uuid: testUuid(1),
      title: 'Market',
      userHint: 'H',
      developerPrompt: 'P',
    });
    expect(section.subsections.map((s) => s.title)).toEqual(['Size', 'Trends', 'Customers']);
    expect(section.subsections[0]).toEqual({
      uuid: testUuid(2),
      title: 'Size',
      userHint: 'SH',
      developerPrompt: 'SP',
      finalized: true,
      markdown: 'About 2 million shops.\n\nGrowing 4 % a year.',
      // Block by block with their real nodeIds: what the offline assistant's partial edits target.
      blocks: [
        { nodeId: expect.any(String), type: 'paragraph', markdown: 'About 2 million shops.' },
        { nodeId: expect.any(String), type: 'paragraph', markdown: 'Growing 4 % a year.' },
      ],
    });
    const sub = assembleChatContext(
      contextInput(doc, { scope: { target: 'subsection', sectionUuid: null, subsectionUuid: testUuid(6) } }),
    ).scope;
    expect(sub.target).toBe('subsection');
    expect(sub.section?.uuid).toBe(testUuid(5));
    expect(sub.subsections.map((s) => s.markdown)).toEqual(['Ada and Grace.']);
    expect(assembleChatContext(contextInput(doc)).scope).toEqual({
      documentTitle: 'Acme plan',
      target: 'document',
      section: null,
      subsections: [],
    });
  });

  it('CX11 the instructions name both tools and note options the provider cannot honour', () => {
    const plain = part(assembleChatContext(contextInput(doc)), 'instructions');
    for (const word of [
      'propose_full_subsection',
      'propose_partial_edits',
      'subsection_uuid',
      'targetNodeId',
    ]) {
      expect(plain).toContain(word);
    }
    expect(plain).toContain('finalized');
    expect(plain).toContain('language');
    expect(plain).not.toContain('cannot do that');
    const offline = part(
      assembleChatContext(
        contextInput(doc, { provider: OFFLINE_PROVIDER, options: { webAccess: true, research: true } }),
      ),
      'instructions',
    );
    expect(offline).toContain(
      'the user turned on web access and research, but Offline drafts (no AI model) cannot',
    );
    const capable = part(
      assembleChatContext(contextInput(doc, { options: { webAccess: true, research: false } })),
      'instructions',
    );
    expect(capable).not.toContain('cannot do that');
    expect(capable).toContain('turned on web access: you may use it');
  });

  it('CX4 titles with line breaks stay on one line', () => {
    const tricky = buildDocument({
      sections: [{ title: 'A\nB', subsections: [{ title: '', paragraphs: ['x'] }] }],
    });
    const outline = part(assembleChatContext(contextInput(tricky)), 'outline');
    expect(outline).toContain(`1. A B [section ${testUuid(1)}]`);
    expect(outline).toContain(`1.1 Untitled Subsection [subsection ${testUuid(2)}]`);
  });
});

describe('assembleChatContext: hostile and big input', () => {
  it('CX8 hostile strings in titles, hints, prompts, history and messages never throw', () => {
    for (let index = 0; index < hostileStrings.length; index += 1) {
      const text = hostileStrings[index] as string;
      const hostile = buildDocument({
        title: text,
        sections: [
          { title: text, paragraphs: [text], subsections: [{ title: text, paragraphs: [text, text] }] },
          { title: text, subsections: [{ title: text, paragraphs: [text] }] },
        ],
      });
      const context = assembleChatContext(
        contextInput(hostile, {
          globalSystemPrompt: text,
          blueprint: { title: text, systemPrompt: text },
          document: { uuid: testUuid(1000), title: text, content: hostile },
          settings: {
            sections: new Map([[testUuid(1), { developerPrompt: text, userHint: text }]]),
            subsections: new Map([[testUuid(2), { developerPrompt: text, userHint: text }]]),
          },
          scope: { target: 'subsection', sectionUuid: testUuid(1), subsectionUuid: testUuid(2) },
          history: [
            { role: 'user', content: text },
            {
              role: 'assistant',
              content: text,
              toolCalls: [
                { toolCallId: text, toolName: 'propose_full_subsection', input: { content: text } },
              ],
            },
            {
              role: 'tool',
              results: [
                { toolCallId: text, toolName: 'propose_full_subsection', decision: 'rejected', detail: text },
              ],
            },
          ],
          message: text,
          budgetTokens: 3_000 + (index % 7) * 300,
        }),
      );
      expect(context.messages.at(-1)).toEqual({ role: 'user', content: text });
      expect(context.totalTokens <= context.budgetTokens || context.overBudget).toBe(true);
    }
  });

  it('CX9 a plan of 1,000 subsections (random uuids) assembles within its budget', () => {
    const big = createDocumentContent(
      Array.from({ length: 20 }, (_, s) => ({
        uuid: randomUUID(),
        title: `Section ${s + 1}`,
        content: [paragraph(`Summary of section ${s + 1}.`)],
        subsections: Array.from({ length: 50 }, (_, u) => ({
          uuid: randomUUID(),
          title: `Subsection ${s + 1}.${u + 1}`,
          content: [
            paragraph(`Text of ${s + 1}.${u + 1}: ${'detail '.repeat(30)}`),
            paragraph('A second one.'),
          ],
          finalized: u % 3 === 0,
        })),
      })),
    );
    const uuids = big.content.map((node) => node.attrs.uuid);
    const context = assembleChatContext(
      contextInput(big, {
        scope: { target: 'section', sectionUuid: uuids[0] ?? null, subsectionUuid: null },
        budgetTokens: 24_000,
      }),
    );
    expect(context.overBudget).toBe(false);
    expect(context.totalTokens).toBeLessThanOrEqual(24_000);
    // Cutting stops at what is needed: much of the budget is used.
    expect(context.totalTokens).toBeGreaterThan(12_000);
    const outline = part(context, 'outline');
    expect(outline).toContain('Progress: 340 of 1000 subsections finalized.');
    for (const uuid of uuids) expect(outline).toContain(`[section ${uuid}]`);
    // The section in scope is whole; the digest names other sections.
    expect(part(context, 'section')).toContain('A second one.');
    expect(markersIn(part(context, 'section')).length).toBe(101);
    expect(part(context, 'digest')).toContain(`[section ${uuids[1]};`);
  });
});
