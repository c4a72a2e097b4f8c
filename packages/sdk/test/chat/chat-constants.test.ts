import { CHAT_TEXTS, CHAT_TIMINGS } from '@planwright/sdk';
import { createSocketPair, ManualClock } from '@planwright/sdk/testing';
import { describe, expect, it } from 'vitest';

describe('C1 C2 constants and texts', () => {
  it('C1: the timings of spec 001 §9', () => {
    expect(CHAT_TIMINGS).toEqual({
      pingMs: 30_000,
      pongTimeoutMs: 10_000,
      stabilizationMs: 5_000,
      initialErrorSuppressionMs: 3_000,
      maxReconnectAttempts: 5,
      reconnectBaseMs: 1_000,
      reconnectMaxMs: 30_000,
      switchWaitMs: 800,
      historyDelayMs: 500,
      historyTimeoutMs: 10_000,
      answerPollBaseMs: 1_000,
      answerPollMaxMs: 8_000,
      answerWaitMs: 120_000,
      warningClearMs: 5_000,
      toolCompleteClearMs: 2_000,
    });
  });

  it('C2: the texts of spec 001 §4, §5 and §8, word for word', () => {
    expect(Object.values(CHAT_TEXTS)).toEqual([
      'You are not authenticated. Please log in.',
      'AI Agent is not connected',
      'Chat history took longer than expected to load. Some messages may be missing.',
      'Failed to connect to chat.',
      'Failed to create or connect to new chat.',
      'Failed to connect to selected chat.',
      'Failed to reset AI connection.',
      'Chat disconnected. Please try again.',
      'Unable to reconnect. Please send your message again.',
      'Failed to send message. Please try again.',
      'Chat disconnected. You can send a new message to resume.',
      'Maximum reconnect attempts reached. Giving up.',
      'Authentication failed. Please log in again.',
      'Review proposed changes',
      'Changes applied successfully',
      'Proposed edit rejected. Click to review.',
      'Untitled Chat',
    ]);
  });
});

describe('C34 testing helpers', () => {
  it('C34: ManualClock runs due timers in time order, including ones scheduled while advancing', () => {
    const clock = new ManualClock(0);
    const seen: string[] = [];
    clock.setTimeout(() => seen.push('b@20'), 20);
    const cancelled = clock.setTimeout(() => seen.push('never'), 5);
    clock.setTimeout(() => {
      seen.push('a@10');
      clock.setTimeout(() => seen.push('c@15'), 5);
    }, 10);
    clock.clearTimeout(cancelled);
    clock.advance(19);
    expect(seen).toEqual(['a@10', 'c@15']);
    expect(clock.now()).toBe(19);
    clock.advance(1);
    expect(seen).toEqual(['a@10', 'c@15', 'b@20']);
    expect(clock.pending).toBe(0);
  });

  it('C34: the socket pair delivers in order both ways and refuses sends after close', () => {
    const { client, server } = createSocketPair();
    const got: unknown[] = [];
    const closes: number[] = [];
    client.onmessage = (event) => got.push(event.data);
    client.onclose = (event) => closes.push(event.code);
    expect(() => client.send('early')).toThrow();
    server.accept();
    client.send('one');
    client.send('two');
    server.send({ type: 'ai', content: 'x' });
    expect(server.received).toEqual(['one', 'two']);
    expect(got).toEqual(['{"type":"ai","content":"x"}']);
    server.drop();
    expect(closes).toEqual([1006]);
    expect(() => client.send('late')).toThrow();
  });
});
