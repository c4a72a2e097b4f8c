import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath } from '../../../../../tests/support/corpus-path.mjs';
import {
  AiProviderError,
  type AiStreamEvent,
  type ChatPromptMessage,
} from '../../../src/ai/providers/ai-provider.js';
import { createProvider } from '../../../src/ai/providers/create-provider.js';
import { recogniseIntent } from '../../../src/ai/providers/offline-assistant.js';
import {
  createOfflineProvider,
  OFFLINE_DRAFT_NOTICE,
  OFFLINE_PROPOSAL_NOTES,
} from '../../../src/ai/providers/offline-provider.js';
import { aiConfig, chatTurn, collect, scope, subsection, textOf } from './provider-fixtures.js';

const hostile: string[] = JSON.parse(readFileSync(corpusPath('hostile-strings/blns.json'), 'utf8'));
const offline = createOfflineProvider();

function toolCalls(events: readonly AiStreamEvent[]) {
  return events.filter((e): e is Extract<AiStreamEvent, { type: 'tool-call' }> => e.type === 'tool-call');
}

describe('offline provider', () => {
  it('AP20 info says offline, with the offline label and tools only', () => {
    expect(offline.info).toEqual({
      name: 'offline',
      model: 'offline-drafter',
      label: 'Offline drafts (no AI model)',
      offline: true,
      supports: { webAccess: false, research: false, tools: true },
      transformActions: ['fix_grammar', 'simplify', 'shorten'],
    });
  });

  it('AP21 is deterministic: the same request gives the same events', async () => {
    const first = await collect(offline.streamChat(chatTurn()));
    const second = await collect(createOfflineProvider().streamChat(chatTurn()));
    expect(first.error).toBeUndefined();
    expect(second.events).toEqual(first.events);
  });

  it('AP22 every answer starts with the offline label, streamed in several small text chunks', async () => {
    const { events } = await collect(offline.streamChat(chatTurn()));
    const text = textOf(events);
    expect(text.startsWith(`${OFFLINE_DRAFT_NOTICE}\n`)).toBe(true);
    const texts = events.filter((e) => e.type === 'text');
    expect(texts.length).toBeGreaterThan(5);
    for (const event of texts)
      expect((event as { delta: string }).delta.trim().split(/\s+/).length).toBeLessThanOrEqual(4);
    expect(events[0]?.type).toBe('text');
  });

  it('AP23 guidance, the user’s facts and what looks missing are in the answer, and nothing is proposed', async () => {
    const target = subsection({
      markdown: 'We already sell **400 loaves** a week in Berlin since March 2024, for €3.50 each.',
    });
    const { events } = await collect(
      offline.streamChat(chatTurn({ scope: scope({ target: 'subsection', subsections: [target] }) })),
    );
    const text = textOf(events);
    expect(text).toContain('You asked: “Please draft the market size.”');
    expect(text).toContain('guidance from the plan’s template, not text for the plan');
    expect(text).toContain('- How many customers could buy this?');
    expect(text).toContain('- Give TAM, SAM and SOM with numbers.');
    for (const fact of ['400 loaves a week', 'Berlin', 'March 2024', '€3.50'])
      expect(text).toContain(`“${fact}”`);
    expect(text).toMatch(/What may be missing[\s\S]*\n- Name the sources\./);
    expect(text).toContain('“turn these notes into bullet points”');
    expect(toolCalls(events)).toEqual([]);
    expect(events.some((e) => e.type === 'tool-generating')).toBe(false);
    const finish = events.at(-1) as Extract<AiStreamEvent, { type: 'finish' }>;
    expect(finish.finishReason).toBe('stop');
    expect(finish.usage.inputTokens).toBeGreaterThan(0);
    expect(finish.usage.outputTokens).toBeGreaterThan(0);
  });

  it('AP24 a section chat describes every subsection in scope (finalized ones marked)', async () => {
    const done = subsection({ uuid: 'done-1', title: 'Done', finalized: true });
    const open = subsection({ uuid: 'open-2', title: 'Competitors', userHint: 'Who else bakes here?' });
    const { events } = await collect(
      offline.streamChat(chatTurn({ scope: scope({ subsections: [done, open] }) })),
    );
    expect(textOf(events)).toContain('### Done (finalized)');
    expect(textOf(events)).toContain('### Competitors');
    expect(textOf(events)).toContain('- Who else bakes here?');
    expect(toolCalls(events)).toEqual([]);
  });

  it('AP25 finalized subsections are never proposed, even when an edit is asked for', async () => {
    const notes = 'Bakery in Berlin. Three staff. Opening 2025.';
    const done = [
      subsection({ uuid: 'a', finalized: true, markdown: notes }),
      subsection({ uuid: 'b', finalized: true, markdown: notes }),
    ];
    const ask = [{ role: 'user' as const, content: 'turn these notes into bullet points' }];
    const section = await collect(
      offline.streamChat(chatTurn({ messages: ask, scope: scope({ subsections: done }) })),
    );
    expect(toolCalls(section.events)).toEqual([]);
    expect(textOf(section.events)).toContain('Everything here is finalized');
    const single = await collect(
      offline.streamChat(
        chatTurn({
          messages: ask,
          scope: scope({ target: 'subsection', subsections: [done[0] ?? subsection()] }),
        }),
      ),
    );
    expect(toolCalls(single.events)).toEqual([]);
    expect(single.events.some((e) => e.type === 'tool-generating')).toBe(false);
    expect(single.events.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
    const empty = await collect(offline.streamChat(chatTurn({ scope: scope({ subsections: [] }) })));
    expect(toolCalls(empty.events)).toEqual([]);
  });

  it('AP26 proposes nothing when tools are not offered, and says so', async () => {
    const target = subsection({ markdown: 'Bakery in Berlin. Three staff. Opening 2025.' });
    const { events } = await collect(
      offline.streamChat(
        chatTurn({
          tools: false,
          messages: [{ role: 'user', content: 'Make these notes bullet points' }],
          scope: scope({ target: 'subsection', subsections: [target] }),
        }),
      ),
    );
    expect(events.some((e) => e.type === 'tool-call' || e.type === 'tool-generating')).toBe(false);
    expect(textOf(events)).toContain('nothing is proposed');
  });

  it('AP27 says it cannot search the web or do research when asked to', async () => {
    const plain = textOf((await collect(offline.streamChat(chatTurn()))).events);
    expect(plain).not.toContain('cannot');
    const asked = textOf(
      (await collect(offline.streamChat(chatTurn({ options: { webAccess: true, research: true } })))).events,
    );
    expect(asked).toContain('cannot search the web or do research');
  });

  it('AP28 after the user decided on a proposal it acknowledges briefly, with no tool call', async () => {
    const { events } = await collect(
      offline.streamChat(
        chatTurn({
          messages: [
            { role: 'user', content: 'Draft it.' },
            {
              role: 'assistant',
              content: 'Here.',
              toolCalls: [{ toolCallId: 't1', toolName: 'propose_full_subsection', input: {} }],
            },
            {
              role: 'tool',
              results: [{ toolCallId: 't1', toolName: 'propose_full_subsection', decision: 'accepted' }],
            },
          ],
        }),
      ),
    );
    const text = textOf(events);
    expect(text.startsWith(OFFLINE_DRAFT_NOTICE)).toBe(true);
    expect(text).toContain('accepted');
    expect(text.length).toBeLessThan(OFFLINE_DRAFT_NOTICE.length + 120);
    expect(events.some((e) => e.type === 'tool-call')).toBe(false);
    expect(events.at(-1)?.type).toBe('finish');
  });

  it('AP29 honours the abort signal between chunks (cancelled)', async () => {
    const controller = new AbortController();
    const seen: AiStreamEvent[] = [];
    let error: unknown;
    try {
      for await (const event of offline.streamChat(chatTurn({ signal: controller.signal }))) {
        seen.push(event);
        if (seen.length === 2) controller.abort();
      }
    } catch (caught) {
      error = caught;
    }
    expect(seen).toHaveLength(2);
    expect(error).toBeInstanceOf(AiProviderError);
    expect((error as AiProviderError).kind).toBe('cancelled');
    const aborted = new AbortController();
    aborted.abort();
    await expect(
      offline.transform({
        action: 'improve',
        text: 'x',
        customPrompt: null,
        system: '',
        prompt: '',
        signal: aborted.signal,
      }),
    ).rejects.toMatchObject({ kind: 'cancelled' });
  });

  it('AP30 hostile strings in hints, titles, text and messages never throw, and the label still leads', async () => {
    expect(hostile.length).toBeGreaterThan(100);
    for (const [i, value] of hostile.entries()) {
      const target = subsection({
        uuid: `u-${i}`,
        title: value,
        userHint: value,
        developerPrompt: `${value}\n${value}`,
        markdown: value,
      });
      const { events, error } = await collect(
        offline.streamChat(
          chatTurn({
            system: value,
            messages: [{ role: 'user', content: value }],
            options: { webAccess: i % 2 === 0, research: i % 3 === 0 },
            scope: scope({ documentTitle: value, subsections: [target] }),
          }),
        ),
      );
      expect(error, `hostile string #${i}`).toBeUndefined();
      expect(textOf(events).startsWith(OFFLINE_DRAFT_NOTICE)).toBe(true);
      expect(events.at(-1)?.type).toBe('finish');
      // A hostile message asks for nothing recognised, or an edit of the user's own (hostile) text only.
      for (const call of toolCalls(events)) expect(call.toolName).toBe('propose_partial_edits');
    }
  });
});

/** Every word of `text`, lower-cased. */
function wordsOf(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

function turn(message: string, markdown: string, history: ChatPromptMessage[] = []) {
  return chatTurn({
    messages: [...history, { role: 'user', content: message }],
    scope: scope({ target: 'subsection', subsections: [subsection({ markdown })] }),
  });
}

/** The edits of the first proposal among `events` (none when nothing was proposed). */
function editsOf(events: readonly AiStreamEvent[]): Edits['edits'] {
  return (toolCalls(events)[0]?.input as Edits | undefined)?.edits ?? [];
}

type Edits = { edits: Array<{ targetNodeId: string; mode: string; format?: string; content?: string }> };

describe('offline assistant: edits from the user’s own words (AP32–AP36)', () => {
  const notes =
    'Bakery in Kreuzberg, Berlin. 3 staff from day one; rent €2,400 a month.\n\nOpening in May 2025.';

  it('AP32 "turn these notes into bullet points" proposes partial edits built only from the user’s words', async () => {
    const { events } = await collect(
      offline.streamChat(turn('Can you turn these notes into bullet points?', notes)),
    );
    const calls = toolCalls(events);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.toolName).toBe('propose_partial_edits');
    const input = calls[0]?.input as Edits & { notes: string };
    expect(input.notes).toBe(OFFLINE_PROPOSAL_NOTES);
    expect(input.edits).toEqual([
      {
        targetNodeId: 'n1',
        mode: 'replace',
        format: 'markdown',
        content:
          '- Bakery in Kreuzberg, Berlin\n- 3 staff from day one\n- rent €2,400 a month\n- Opening in May 2025',
        reason: expect.any(String),
      },
      { targetNodeId: 'n2', mode: 'delete', reason: expect.any(String) },
    ]);
    const mine = wordsOf(notes);
    for (const edit of input.edits)
      for (const word of wordsOf(edit.content ?? '')) expect(mine).toContain(word);
    // The arguments stream between the start and the call, and join back to exactly the call's input.
    const tail = events.slice(events.findIndex((e) => e.type === 'tool-generating'));
    expect(tail[0]?.type).toBe('tool-generating');
    expect(tail.slice(-2).map((e) => e.type)).toEqual(['tool-call', 'finish']);
    const deltas = tail.slice(1, -2);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.every((e) => e.type === 'tool-input')).toBe(true);
    expect(JSON.parse(deltas.map((e) => (e.type === 'tool-input' ? e.delta : '')).join(''))).toEqual(input);
  });

  it('AP33 "turn this list into a paragraph" keeps every item’s words; the round trip keeps them too', async () => {
    const list = '- bakery in Berlin\n- 3 staff\n- opening May 2025';
    const { events } = await collect(offline.streamChat(turn('turn this list into a paragraph', list)));
    const input = toolCalls(events)[0]?.input as Edits;
    expect(input.edits).toEqual([
      expect.objectContaining({
        targetNodeId: 'n1',
        mode: 'replace',
        content: 'Bakery in Berlin. 3 staff. Opening May 2025.',
      }),
    ]);
    const paragraph = input.edits[0]?.content ?? '';
    const back = await collect(offline.streamChat(turn('now as bullet points please', paragraph)));
    const bullets = editsOf(back.events)[0]?.content ?? '';
    expect(wordsOf(bullets)).toEqual(wordsOf(list));
  });

  it('AP34 "make it shorter" deletes filler only; asked again after accepting, it says it cannot shorten further', async () => {
    const wordy =
      'I think that we really need to basically hire 3 bakers (as soon as we can) in order to grow.';
    const first = await collect(offline.streamChat(turn('Make it shorter', wordy)));
    const edits = editsOf(first.events);
    expect(edits).toEqual([
      expect.objectContaining({ targetNodeId: 'n1', content: 'We need to hire 3 bakers to grow.' }),
    ]);
    const shorter = edits[0]?.content ?? '';
    const again = await collect(offline.streamChat(turn('make it shorter', shorter)));
    expect(toolCalls(again.events)).toEqual([]);
    expect(textOf(again.events)).toContain('cannot shorten this further');
    // Asked twice before deciding: the same edits are not proposed a second time.
    const history: ChatPromptMessage[] = [
      { role: 'user', content: 'Make it shorter' },
      {
        role: 'assistant',
        content: textOf(first.events),
        toolCalls: toolCalls(first.events).map(({ toolCallId, toolName, input }) => ({
          toolCallId,
          toolName,
          input,
        })),
      },
    ];
    const twice = await collect(offline.streamChat(turn('make it shorter', wordy, history)));
    expect(toolCalls(twice.events)).toEqual([]);
    expect(textOf(twice.events)).toContain('proposed exactly these changes before');
  });

  it('AP35 "split this long paragraph" cuts between sentences; "fix the spelling" corrects with the dictionary', async () => {
    const long = 'We bake bread. We sell cakes. We deliver to cafés. We cater events.';
    const split = await collect(offline.streamChat(turn('please split this long paragraph', long)));
    expect(editsOf(split.events)[0]?.content).toBe(
      'We bake bread. We sell cakes.\n\nWe deliver to cafés. We cater events.',
    );
    const typos = await collect(
      offline.streamChat(turn('fix the spelling', 'Our bakerys sell alot of bread.')),
    );
    expect(editsOf(typos.events)[0]?.content).toBe('Our bakeries sell a lot of bread.');
  });

  it('AP36 intents are recognised generously; anything else is guidance only', () => {
    const expected: Array<[string, string | null]> = [
      ['Turn these notes into bullet points', 'to_bullets'],
      ['can you make this a bulleted list?', 'to_bullets'],
      ['Put it in list form', 'to_bullets'],
      ['turn this list into a paragraph', 'to_paragraph'],
      ['Rewrite the bullets as prose', 'to_paragraph'],
      ['make it shorter', 'shorten'],
      ['Too long, condense it', 'shorten'],
      ['split this long paragraph', 'split'],
      ['break it up into smaller paragraphs', 'split'],
      ['fix the spelling', 'fix_spelling'],
      ['Any typos?', 'fix_spelling'],
      ['Proofread this', 'fix_spelling'],
      ['Draft the executive summary', null],
      ['What should I write here?', null],
    ];
    for (const [message, intent] of expected)
      expect([message, recogniseIntent(message)]).toEqual([message, intent]);
  });
});

describe('createProvider', () => {
  it('AP31 picks the offline drafter for offline and the AI SDK provider otherwise', async () => {
    const offline = await createProvider(aiConfig({ provider: 'offline', model: 'offline-drafter' }));
    expect(offline.info.offline).toBe(true);
    const compatible = await createProvider(aiConfig({ baseUrl: 'http://127.0.0.1:9/v1' }));
    expect(compatible.info).toMatchObject({ name: 'openai-compatible', offline: false });
    const anthropic = await createProvider(aiConfig({ provider: 'anthropic', model: 'claude-sonnet-4-5' }));
    expect(anthropic.info.label).toBe('Anthropic · claude-sonnet-4-5');
  });
});
