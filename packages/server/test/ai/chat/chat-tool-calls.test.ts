import { describe, expect, it } from 'vitest';
import { ChatToolCalls } from '../../../src/ai/chat/chat-tool-calls.js';

function searched(sources: Array<{ title: string; url: string }>, ok = true) {
  const calls = new ChatToolCalls('message-1');
  const labels = { toolCallId: 'c1', toolName: 'web_search', source: 'search' as const, server: 'SearXNG' };
  calls.started({ type: 'external-call-start', ...labels });
  calls.ended({
    type: 'external-call-end',
    ...labels,
    durationMs: 5,
    outcome: ok
      ? { ok, output: '…', summary: 'n results', sources }
      : { ok: false, output: 'x', summary: 'failed' },
  });
  return calls;
}

describe('the sources line (CH21)', () => {
  it('CH21 escapes link text and URLs so a hostile title or URL cannot break out of its link', () => {
    const calls = searched([
      { title: 'A [tricky] *title*\nwith lines', url: 'https://x.example/a_(b) c<d>' },
    ]);
    expect(calls.sourcesMissingFrom('Answer.')).toBe(
      '\n\n**Sources:** [A \\[tricky\\] \\*title\\* with lines](https://x.example/a_%28b%29%20c%3Cd%3E)',
    );
  });

  it('CH21 nothing is added when the answer links a result, when no search succeeded, or without searches', () => {
    const calls = searched([{ title: 'T', url: 'https://t.example/1' }]);
    expect(calls.sourcesMissingFrom('See [T](https://t.example/1).')).toBe('');
    expect(searched([], false).sourcesMissingFrom('Answer.')).toBe('');
    expect(new ChatToolCalls('m').sourcesMissingFrom('Answer.')).toBe('');
  });

  it('CH21 lists at most five sources; an empty answer gets the line alone', () => {
    const many = Array.from({ length: 8 }, (_, i) => ({ title: `T${i}`, url: `https://t.example/${i}` }));
    const line = searched(many).sourcesMissingFrom('');
    expect(line.startsWith('**Sources:** ')).toBe(true);
    expect(line.match(/\]\(/g)).toHaveLength(5);
  });
});
