import { afterEach, describe, expect, it } from 'vitest';
import {
  type OpenAiStreamServer,
  startOpenAiStreamServer,
} from '../../../../../tests/support/openai-stream-server.mjs';

let server: OpenAiStreamServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function post(url: string, body: unknown, signal?: AbortSignal) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

/** The `data:` payloads of an SSE body. */
function dataLines(text: string): string[] {
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => block.slice('data: '.length));
}

describe('the local OpenAI streaming server (test support)', () => {
  it('AP40 streams chat.completion.chunk events, tool-call arguments in pieces, finish, usage, [DONE]', async () => {
    const firstBytes: number[] = [];
    server = await startOpenAiStreamServer({ onFirstByte: (index) => firstBytes.push(index) });
    server.script({
      type: 'answer',
      text: ['Hi', ' there'],
      toolCalls: [{ id: 'call_1', name: 'propose_full_subsection', arguments: { a: 'xyz' }, pieces: 3 }],
      usage: { prompt_tokens: 5, completion_tokens: 2 },
    });
    const response = await post(`${server.baseUrl}/chat/completions`, {
      model: 'm',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const lines = dataLines(await response.text());
    expect(lines.at(-1)).toBe('[DONE]');
    const chunks = lines.slice(0, -1).map((line) => JSON.parse(line));
    expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    const text = chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');
    expect(text).toBe('Hi there');
    const argumentPieces = chunks.flatMap((c) => c.choices[0]?.delta?.tool_calls ?? []);
    expect(argumentPieces[0]).toMatchObject({
      index: 0,
      id: 'call_1',
      type: 'function',
      function: { name: 'propose_full_subsection' },
    });
    expect(argumentPieces.length).toBeGreaterThan(2);
    expect(argumentPieces.map((p) => p.function.arguments).join('')).toBe('{"a":"xyz"}');
    expect(chunks.at(-2).choices[0].finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
    });
    expect(firstBytes).toEqual([0]);
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      clientDisconnected: false,
    });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer k');
  });

  it('AP41 answers non-streaming requests with a chat.completion; the default answer when the queue is empty', async () => {
    server = await startOpenAiStreamServer({ defaultAnswer: { type: 'answer', text: 'Default.' } });
    const response = await post(`${server.baseUrl}/chat/completions`, { model: 'm', messages: [] });
    const body = await response.json();
    expect(body).toMatchObject({
      object: 'chat.completion',
      choices: [{ message: { role: 'assistant', content: 'Default.' }, finish_reason: 'stop' }],
    });
  });

  it('AP42 scripted errors carry the OpenAI error body and retry headers; unknown paths are 404', async () => {
    server = await startOpenAiStreamServer();
    server.enqueue({ type: 'error', status: 429, message: 'slow', retryAfterMs: 250, retryAfter: '1' });
    const limited = await post(`${server.baseUrl}/chat/completions`, { stream: true });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after-ms')).toBe('250');
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(await limited.json()).toEqual({
      error: { message: 'slow', type: 'rate_limit_exceeded', param: null, code: null },
    });
    const missing = await post(`${server.baseUrl}/embeddings`, {});
    expect(missing.status).toBe(404);
  });

  it('AP43 a drop ends the body mid-way; a hang lasts until the client aborts, which is recorded', async () => {
    server = await startOpenAiStreamServer();
    server.script({ type: 'drop', text: ['a', 'b'] }, { type: 'hang', text: ['c'] });
    const dropped = await post(`${server.baseUrl}/chat/completions`, { stream: true });
    await expect(dropped.text()).rejects.toThrow();
    expect(server.requests[0]?.clientDisconnected).toBe(false);
    const controller = new AbortController();
    const hanging = await post(`${server.baseUrl}/chat/completions`, { stream: true }, controller.signal);
    const reader = hanging.body?.getReader();
    await reader?.read();
    controller.abort();
    await server.waitForClientDisconnect(1);
    expect(server.requests[1]?.clientDisconnected).toBe(true);
    expect(server.requests[1]?.clientDisconnectedAt).toBeGreaterThanOrEqual(
      server.requests[1]?.receivedAt ?? 0,
    );
  });
});
