import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath } from '../../../../../tests/support/corpus-path.mjs';
import { AiProviderError, type AiStreamEvent } from '../../../src/ai/providers/ai-provider.js';
import { createProvider } from '../../../src/ai/providers/create-provider.js';
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

  it('AP23 drafts from the hints, keeps the existing text, and proposes it through propose_full_subsection', async () => {
    const target = subsection({ markdown: 'We already sell **400 loaves** a week.' });
    const { events } = await collect(
      offline.streamChat(chatTurn({ scope: scope({ subsections: [target] }) })),
    );
    const text = textOf(events);
    expect(text).toContain('Please draft the market size.');
    const calls = toolCalls(events);
    expect(calls).toHaveLength(1);
    const input = calls[0]?.input as {
      subsection_uuid: string;
      format: string;
      content: string;
      notes: string;
    };
    expect(input.subsection_uuid).toBe(target.uuid);
    expect(input.format).toBe('markdown');
    expect(input.notes).toBe(OFFLINE_PROPOSAL_NOTES);
    expect(input.content.startsWith('We already sell **400 loaves** a week.')).toBe(true);
    expect(input.content).toContain('- How many customers could buy this?');
    expect(input.content).toContain('- Name the sources.');
    expect(input.content).toContain('- Give TAM, SAM and SOM with numbers.');
    expect(text).toContain(input.content);
    const kinds = events.map((e) => e.type);
    expect(kinds.slice(-3)).toEqual(['tool-generating', 'tool-call', 'finish']);
    const generating = events.at(-3) as { toolCallId: string };
    expect(generating.toolCallId).toBe(calls[0]?.toolCallId);
    const finish = events.at(-1) as Extract<AiStreamEvent, { type: 'finish' }>;
    expect(finish.finishReason).toBe('tool-calls');
    expect(finish.usage.inputTokens).toBeGreaterThan(0);
    expect(finish.usage.outputTokens).toBeGreaterThan(0);
  });

  it('AP24 a section chat drafts the first subsection that is not finalized', async () => {
    const done = subsection({ uuid: 'done-1', title: 'Done', finalized: true });
    const open = subsection({ uuid: 'open-2', title: 'Competitors', userHint: 'Who else bakes here?' });
    const { events } = await collect(
      offline.streamChat(chatTurn({ scope: scope({ subsections: [done, open] }) })),
    );
    expect(toolCalls(events)[0]?.input).toMatchObject({ subsection_uuid: 'open-2' });
    expect(textOf(events)).toContain('**Competitors**');
  });

  it('AP25 finalized subsections are never proposed; nothing left says so', async () => {
    const done = [subsection({ uuid: 'a', finalized: true }), subsection({ uuid: 'b', finalized: true })];
    const section = await collect(offline.streamChat(chatTurn({ scope: scope({ subsections: done }) })));
    expect(toolCalls(section.events)).toEqual([]);
    expect(textOf(section.events)).toContain('nothing left to draft');
    const single = await collect(
      offline.streamChat(
        chatTurn({ scope: scope({ target: 'subsection', subsections: [done[0] ?? subsection()] }) }),
      ),
    );
    expect(toolCalls(single.events)).toEqual([]);
    expect(single.events.some((e) => e.type === 'tool-generating')).toBe(false);
    expect(textOf(single.events)).toContain('is finalized');
    expect(single.events.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
    const empty = await collect(offline.streamChat(chatTurn({ scope: scope({ subsections: [] }) })));
    expect(toolCalls(empty.events)).toEqual([]);
  });

  it('AP26 proposes nothing when tools are not offered', async () => {
    const { events } = await collect(offline.streamChat(chatTurn({ tools: false })));
    expect(events.some((e) => e.type === 'tool-call' || e.type === 'tool-generating')).toBe(false);
    expect(textOf(events)).toContain('Points to cover');
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
      expect(toolCalls(events)).toHaveLength(1);
    }
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
