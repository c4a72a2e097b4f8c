import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assembleChatContext, type ContextPart } from '../../../src/ai/context/assemble-context.js';
import { countTokens } from '../../../src/ai/context/token-count.js';
import type { ChatPromptMessage } from '../../../src/ai/providers/ai-provider.js';
import { buildDocument, contextInput, markersIn, testUuid } from './context-fixtures.js';

/** A message's text as the engine counts it (CX8). */
function sentText(message: ChatPromptMessage): string {
  if (message.role === 'tool') return JSON.stringify(message.results);
  if (message.role === 'assistant' && message.toolCalls.length > 0) {
    return `${message.content}\n${JSON.stringify(message.toolCalls)}`;
  }
  return message.content;
}

const sentence = (n: number) => `Sentence number ${n} says something about the market and the plan. `;
const text = (from: number, count: number) =>
  Array.from({ length: count }, (_, index) => sentence(from + index)).join('');

// Section 1 (uuid 1) is in scope, with subsections 2 and 3; sections 4, 5, 6 form the digest.
const doc = buildDocument({
  sections: [
    {
      title: 'Scope',
      paragraphs: [text(0, 3)],
      subsections: [
        { title: 'First', paragraphs: [text(10, 4), text(20, 4)] },
        { title: 'Second', paragraphs: [text(30, 4), text(40, 4)], finalized: true },
      ],
    },
    { title: 'Other A', paragraphs: [text(100, 20)], subsections: [] },
    { title: 'Other B', paragraphs: [text(200, 20)], subsections: [] },
    { title: 'Other C', paragraphs: [text(300, 20)], subsections: [] },
  ],
});
const history: ChatPromptMessage[] = Array.from({ length: 6 }, (_, index) =>
  index % 2 === 0
    ? { role: 'user' as const, content: `Question ${index}: ${text(500 + index * 5, 5)}` }
    : { role: 'assistant' as const, content: `Answer ${index}: ${text(600 + index * 5, 5)}`, toolCalls: [] },
);
const base = {
  // A long global prompt keeps the digest's 25 % share from binding in these budgets.
  globalSystemPrompt: 'word '.repeat(3000),
  scope: { target: 'section' as const, sectionUuid: testUuid(1), subsectionUuid: null },
  history,
  message: 'Make the first subsection shorter.',
};
const assemble = (budgetTokens: number) => assembleChatContext(contextInput(doc, { ...base, budgetTokens }));
const partOf = (parts: ContextPart[], name: ContextPart['name']) =>
  parts.find((candidate) => candidate.name === name) as ContextPart;

describe('assembleChatContext: the budget', () => {
  const full = assemble(1_000_000);
  const tokensOf = (name: ContextPart['name']) => partOf(full.parts, name).tokens;

  it('CX7 with room for everything nothing is cut', () => {
    expect(full.parts.every((part) => !part.truncated)).toBe(true);
    expect(full.messages).toHaveLength(7);
    expect(tokensOf('digest')).toBeGreaterThan(300);
    expect(tokensOf('section')).toBeGreaterThan(300);
  });

  it('CX7 history goes first, oldest first, before the digest or the section', () => {
    const context = assemble(full.totalTokens - 100);
    expect(context.totalTokens).toBeLessThanOrEqual(full.totalTokens - 100);
    const kept = context.messages.slice(0, -1);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(history.length);
    expect(kept).toEqual(history.slice(history.length - kept.length));
    expect(partOf(context.parts, 'history').truncated).toBe(true);
    expect(partOf(context.parts, 'digest')).toEqual(partOf(full.parts, 'digest'));
    expect(partOf(context.parts, 'section')).toEqual(partOf(full.parts, 'section'));
  });

  it('CX7 then the digest shrinks, the section still whole', () => {
    const context = assemble(full.totalTokens - tokensOf('history') - 120);
    expect(context.messages).toEqual([{ role: 'user', content: base.message }]);
    const digest = partOf(context.parts, 'digest');
    expect(digest.truncated).toBe(true);
    expect(digest.tokens).toBeLessThan(tokensOf('digest'));
    expect(digest.tokens).toBeGreaterThan(0);
    expect(partOf(context.parts, 'section')).toEqual(partOf(full.parts, 'section'));
  });

  it('CX7 CX5 then the section is cut, keeping its start and saying so', () => {
    const context = assemble(full.totalTokens - tokensOf('history') - tokensOf('digest') - 150);
    expect(partOf(context.parts, 'digest').text).toBe('');
    const section = partOf(context.parts, 'section');
    expect(section.truncated).toBe(true);
    expect(section.tokens).toBeLessThan(tokensOf('section'));
    expect(section.text).toContain('left out to fit the context budget');
    const fullText = partOf(full.parts, 'section').text;
    const kept = section.text.slice(0, section.text.indexOf('\n\n[… the rest'));
    // What is kept is the start of the full text (the last block may end early, marked with …).
    expect(fullText.startsWith(kept.replace(/…$/, ''))).toBe(true);
    for (const marker of markersIn(section.text)) expect(markersIn(fullText)).toContain(marker);
    expect(partOf(context.parts, 'outline')).toEqual(partOf(full.parts, 'outline'));
  });

  it('CX10 instructions, prompts and the message are never cut; overBudget says when they alone are too big', () => {
    const context = assemble(500);
    expect(context.overBudget).toBe(true);
    expect(context.totalTokens).toBeGreaterThan(500);
    for (const name of ['global', 'blueprint', 'instructions', 'message'] as const) {
      expect(partOf(context.parts, name)).toEqual(partOf(full.parts, name));
    }
    for (const name of ['section', 'digest', 'history', 'outline'] as const) {
      expect(partOf(context.parts, name).text).toBe('');
    }
    expect(context.messages).toEqual([{ role: 'user', content: base.message }]);
    expect(context.system).toContain('The plan is titled "Acme plan".');
  });

  it('CX7 kept history never starts with tool results', () => {
    const withTools: ChatPromptMessage[] = [
      { role: 'user', content: text(700, 10) },
      {
        role: 'assistant',
        content: 'Here is a proposal.',
        toolCalls: [
          { toolCallId: 'call-1', toolName: 'propose_full_subsection', input: { content: text(800, 8) } },
        ],
      },
      {
        role: 'tool',
        results: [{ toolCallId: 'call-1', toolName: 'propose_full_subsection', decision: 'accepted' }],
      },
      { role: 'user', content: 'Thanks.' },
    ];
    const generous = assembleChatContext(
      contextInput(doc, { ...base, history: withTools, budgetTokens: 1_000_000 }),
    );
    const historyTokens = partOf(generous.parts, 'history').tokens;
    // Room for the last two messages, not for the tool call before them.
    for (let cut = 10; cut < historyTokens; cut += 25) {
      const context = assembleChatContext(
        contextInput(doc, { ...base, history: withTools, budgetTokens: generous.totalTokens - cut }),
      );
      const kept = context.messages.slice(0, -1);
      expect(kept).toEqual(withTools.slice(withTools.length - kept.length));
      expect(kept[0]?.role).not.toBe('tool');
    }
  });
});

describe('assembleChatContext: properties', () => {
  const words = fc.string({ maxLength: 40, unit: 'binary' });
  const planSpec = fc.record({
    sections: fc.array(
      fc.record({
        title: words,
        paragraphs: fc.array(fc.string({ maxLength: 300 }), { maxLength: 4 }),
        subsections: fc.array(
          fc.record({
            title: words,
            paragraphs: fc.array(fc.string({ maxLength: 300 }), { maxLength: 3 }),
            finalized: fc.boolean(),
          }),
          { maxLength: 4 },
        ),
      }),
      { minLength: 1, maxLength: 4 },
    ),
  });
  const message = fc.oneof(
    fc.string({ maxLength: 200, unit: 'binary' }),
    fc.constantFrom('<|endoftext|>', '<|im_start|>system', '[#n1]'),
  );
  const historyMessage: fc.Arbitrary<ChatPromptMessage> = fc.oneof(
    fc.string({ maxLength: 400 }).map((content): ChatPromptMessage => ({ role: 'user', content })),
    fc
      .string({ maxLength: 400 })
      .map((content): ChatPromptMessage => ({ role: 'assistant', content, toolCalls: [] })),
    fc.string({ maxLength: 20 }).map(
      (toolCallId): ChatPromptMessage => ({
        role: 'tool',
        results: [{ toolCallId, toolName: 'propose_partial_edits', decision: 'rejected' }],
      }),
    ),
  );

  it('CX2 CX7 CX10 within budget unless overBudget; the message last; history a suffix; real markers (200 runs)', () => {
    fc.assert(
      fc.property(
        planSpec,
        fc.array(historyMessage, { maxLength: 8 }),
        message,
        fc.integer({ min: 0, max: 4_000 }),
        fc.nat(),
        (spec, given, text, budgetTokens, pick) => {
          const content = buildDocument(spec);
          const sections = content.content;
          const section = sections[pick % sections.length];
          const subsections = section?.content.filter((node) => node.type === 'subsection') ?? [];
          const subsection = subsections[pick % Math.max(1, subsections.length)];
          const scope =
            pick % 3 === 0 || !section
              ? { target: 'document' as const, sectionUuid: null, subsectionUuid: null }
              : pick % 3 === 1 || !subsection || subsection.type !== 'subsection'
                ? { target: 'section' as const, sectionUuid: section.attrs.uuid, subsectionUuid: null }
                : { target: 'subsection' as const, sectionUuid: null, subsectionUuid: subsection.attrs.uuid };
          const context = assembleChatContext(
            contextInput(content, {
              globalSystemPrompt: 'Be brief.',
              scope,
              history: given,
              message: text,
              budgetTokens,
            }),
          );
          expect(context.totalTokens <= budgetTokens || context.overBudget).toBe(true);
          expect(context.overBudget).toBe(context.totalTokens > budgetTokens);
          // Counted again for real, as one text per message: within the budget too.
          const real =
            countTokens(context.system) +
            context.messages.reduce((total, sent) => total + countTokens(sentText(sent)) + 1, 0);
          if (!context.overBudget) expect(real).toBeLessThanOrEqual(budgetTokens);
          // Over budget only when every part that may be cut is empty (CX10).
          if (context.overBudget) {
            for (const name of ['outline', 'section', 'digest', 'history'] as const) {
              expect(context.parts.find((part) => part.name === name)?.text).toBe('');
            }
          }
          expect(context.messages.at(-1)).toEqual({ role: 'user', content: text });
          const kept = context.messages.slice(0, -1);
          expect(kept).toEqual(given.slice(given.length - kept.length));
          expect(context.parts.map((part) => part.name)).toEqual([
            'global',
            'blueprint',
            'instructions',
            'scope_prompts',
            'outline',
            'section',
            'digest',
            'history',
            'message',
          ]);
          const instructions = context.parts.find((part) => part.name === 'instructions');
          expect(context.system).toContain(instructions?.text);
          const ids = new Set<string>();
          JSON.stringify(content, (key, value) => {
            if (key === 'nodeId' && typeof value === 'string') ids.add(value);
            return value;
          });
          const sectionText = context.parts.find((part) => part.name === 'section')?.text ?? '';
          for (const marker of markersIn(sectionText)) expect(ids.has(marker)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});
