// A local server speaking the OpenAI Chat Completions wire format, for tests and benchmarks. Plain JavaScript
// with its own declaration file (openai-stream-server.d.mts), so every package's tests and the .mjs
// benchmarks can import it (see corpus-path.mjs for why).
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';

/** @type {import('./openai-stream-server.d.mts').ScriptedAnswer} */
const DEFAULT_ANSWER = { type: 'answer', text: 'Hello from the test model.' };

/** Cuts a text into word-sized deltas that join back to the text. */
function wordDeltas(text) {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** Cuts a string into `pieces` parts of near-equal length (never splits a UTF-16 surrogate pair). */
function cutInPieces(text, pieces) {
  const chars = Array.from(text);
  const size = Math.max(1, Math.ceil(chars.length / Math.max(1, pieces)));
  const parts = [];
  for (let i = 0; i < chars.length; i += size) parts.push(chars.slice(i, i + size).join(''));
  return parts.length > 0 ? parts : [''];
}

/**
 * Answers one Anthropic Messages request (`POST /v1/messages`) in Anthropic's wire format: `event:` +
 * `data:` SSE (message_start, content blocks with text_delta / input_json_delta, message_delta with
 * stop_reason and usage, message_stop), or one `message` object. Returns how the answer ended.
 */
async function answerAnthropic(_req, res, body, answer, record, options) {
  if (answer.type === 'error') {
    const headers = { 'content-type': 'application/json' };
    if (answer.retryAfter !== undefined) headers['retry-after'] = answer.retryAfter;
    if (answer.retryAfterMs !== undefined) headers['retry-after-ms'] = String(answer.retryAfterMs);
    const type = answer.errorType ?? (answer.status === 429 ? 'rate_limit_error' : 'api_error');
    res.writeHead(answer.status, headers).end(
      JSON.stringify({
        type: 'error',
        error: { type, message: answer.message ?? `Scripted error ${answer.status}` },
      }),
    );
    return 'complete';
  }
  const model = typeof body.model === 'string' ? body.model : 'test-model';
  const id = `msg_${randomBytes(8).toString('hex')}`;
  const textDeltas = typeof answer.text === 'string' ? wordDeltas(answer.text) : (answer.text ?? []);
  const toolCalls = (answer.type === 'answer' ? (answer.toolCalls ?? []) : []).map((call, i) => ({
    id: call.id ?? `toolu_${randomBytes(6).toString('hex')}_${i}`,
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    pieces: call.pieces ?? 4,
  }));
  const usage =
    answer.type === 'answer' ? (answer.usage ?? { prompt_tokens: 11, completion_tokens: 7 }) : null;
  const stopReason = toolCalls.length > 0 ? 'tool_use' : 'end_turn';

  if (body.stream !== true) {
    if (answer.type === 'drop') {
      res.socket?.destroy();
      return 'dropped';
    }
    if (answer.type === 'hang') return 'open';
    const content = [];
    if (textDeltas.length > 0) content.push({ type: 'text', text: textDeltas.join('') });
    for (const call of toolCalls) {
      let input = {};
      try {
        input = JSON.parse(call.arguments);
      } catch {
        // A scripted broken argument text has no object form; the block carries an empty input.
      }
      content.push({ type: 'tool_use', id: call.id, name: call.name, input });
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id,
        type: 'message',
        role: 'assistant',
        model,
        content,
        stop_reason: stopReason,
        stop_sequence: null,
        usage: { input_tokens: usage?.prompt_tokens ?? 0, output_tokens: usage?.completion_tokens ?? 0 },
      }),
    );
    options.onFirstByte?.(record.index, performance.now());
    return 'complete';
  }

  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  let chunkIndex = 0;
  const send = async (event, data) => {
    const json = JSON.stringify({ type: event, ...data });
    await options.onChunk?.({ requestIndex: record.index, chunkIndex, data: json });
    if (res.destroyed) return;
    const flushed = new Promise((resolve) =>
      res.write(`event: ${event}\ndata: ${json}\n\n`, () => resolve()),
    );
    if (chunkIndex === 0) options.onFirstByte?.(record.index, performance.now());
    chunkIndex += 1;
    await flushed;
  };
  await send('message_start', {
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: usage?.prompt_tokens ?? 0, output_tokens: 1 },
    },
  });
  let block = 0;
  if (textDeltas.length > 0) {
    await send('content_block_start', { index: block, content_block: { type: 'text', text: '' } });
    for (const delta of textDeltas) {
      await send('content_block_delta', { index: block, delta: { type: 'text_delta', text: delta } });
    }
    if (answer.type === 'answer') await send('content_block_stop', { index: block });
    block += 1;
  }
  if (answer.type === 'drop') {
    res.socket?.destroy();
    return 'dropped';
  }
  if (answer.type === 'hang') return 'open';
  for (const call of toolCalls) {
    await send('content_block_start', {
      index: block,
      content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
    });
    for (const piece of cutInPieces(call.arguments, call.pieces)) {
      await send('content_block_delta', {
        index: block,
        delta: { type: 'input_json_delta', partial_json: piece },
      });
    }
    await send('content_block_stop', { index: block });
    block += 1;
  }
  await send('message_delta', {
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: usage?.completion_tokens ?? 0 },
  });
  await send('message_stop', {});
  res.end();
  return 'complete';
}

/** @type {typeof import('./openai-stream-server.d.mts').startOpenAiStreamServer} */
export async function startOpenAiStreamServer(options = {}) {
  const queue = [];
  let defaultAnswer = options.defaultAnswer ?? DEFAULT_ANSWER;
  const requests = [];
  const requestWaiters = [];
  const disconnectWaiters = new Map();

  const notifyRequests = () => {
    for (const waiter of [...requestWaiters]) {
      if (requests.length >= waiter.count) {
        requestWaiters.splice(requestWaiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };

  const handle = async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    const record = {
      index: requests.length,
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body,
      receivedAt: performance.now(),
      clientDisconnected: false,
      clientDisconnectedAt: null,
    };
    requests.push(record);
    let complete = false;
    let serverDropped = false;
    // 'close' without a complete answer and without our own drop means the client went away (an abort).
    res.on('close', () => {
      if (complete || serverDropped) return;
      record.clientDisconnected = true;
      record.clientDisconnectedAt = performance.now();
      for (const resolve of disconnectWaiters.get(record.index) ?? []) resolve();
      disconnectWaiters.delete(record.index);
    });
    notifyRequests();

    const sendError = (status, message, type, headers = {}, code = null) => {
      complete = true;
      res
        .writeHead(status, { 'content-type': 'application/json', ...headers })
        .end(JSON.stringify({ error: { message, type, param: null, code } }));
    };
    const path = (req.url ?? '').split('?')[0];
    const anthropic = path === '/v1/messages';
    if (req.method !== 'POST' || (path !== '/v1/chat/completions' && !anthropic)) {
      return sendError(404, `Unknown request URL: ${req.method} ${req.url}`, 'invalid_request_error');
    }
    if (typeof body !== 'object' || body === null) {
      return sendError(400, 'We could not parse the JSON body of your request.', 'invalid_request_error');
    }
    const includeUsage = body.stream_options?.include_usage === true;
    const answer = queue.shift() ?? defaultAnswer;

    if (anthropic) {
      const done = await answerAnthropic(req, res, body, answer, record, options);
      if (done === 'complete') complete = true;
      if (done === 'dropped') serverDropped = true;
      return;
    }

    if (answer.type === 'error') {
      const headers = {};
      if (answer.retryAfterMs !== undefined) headers['retry-after-ms'] = String(answer.retryAfterMs);
      if (answer.retryAfter !== undefined) headers['retry-after'] = answer.retryAfter;
      return sendError(
        answer.status,
        answer.message ?? `Scripted error ${answer.status}`,
        answer.errorType ?? (answer.status === 429 ? 'rate_limit_exceeded' : 'server_error'),
        headers,
        answer.code ?? null,
      );
    }

    const model = typeof body.model === 'string' ? body.model : 'test-model';
    const id = `chatcmpl-${randomBytes(8).toString('hex')}`;
    const created = Math.floor(Date.now() / 1000);
    const textDeltas = typeof answer.text === 'string' ? wordDeltas(answer.text) : (answer.text ?? []);
    const toolCalls = (answer.type === 'answer' ? (answer.toolCalls ?? []) : []).map((call, i) => ({
      id: call.id ?? `call_${randomBytes(6).toString('hex')}_${i}`,
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
      pieces: call.pieces ?? 4,
    }));
    const usage =
      answer.type === 'answer' ? (answer.usage ?? { prompt_tokens: 11, completion_tokens: 7 }) : null;
    const usageJson = usage
      ? { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens }
      : null;
    const finishReason = toolCalls.length > 0 ? 'tool_calls' : 'stop';

    if (body.stream !== true) {
      if (answer.type === 'drop') {
        serverDropped = true;
        res.socket?.destroy();
        return;
      }
      if (answer.type === 'hang') return; // stays silent until the client goes away
      complete = true;
      const message = {
        role: 'assistant',
        content: textDeltas.length > 0 ? textDeltas.join('') : null,
        refusal: null,
      };
      if (toolCalls.length > 0) {
        message.tool_calls = toolCalls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: call.arguments },
        }));
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          created,
          model: answer.model ?? model,
          system_fingerprint: null,
          choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
          usage: usageJson,
        }),
      );
      options.onFirstByte?.(record.index, performance.now());
      return;
    }

    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    let chunkIndex = 0;
    const write = async (data) => {
      await options.onChunk?.({ requestIndex: record.index, chunkIndex, data });
      if (res.destroyed) return;
      const flushed = new Promise((resolve) => res.write(`data: ${data}\n\n`, () => resolve()));
      if (chunkIndex === 0) options.onFirstByte?.(record.index, performance.now());
      chunkIndex += 1;
      // Waits until the chunk is handed to the socket, so a scripted drop comes after what was written.
      await flushed;
    };
    const envelope = (choices, extra = {}) =>
      JSON.stringify({
        id,
        object: 'chat.completion.chunk',
        created,
        model: answer.model ?? model,
        system_fingerprint: null,
        choices,
        ...(includeUsage ? { usage: null } : {}),
        ...extra,
      });
    const chunk = (delta, finish = null) =>
      envelope([{ index: 0, delta, logprobs: null, finish_reason: finish }]);

    await write(chunk({ role: 'assistant', content: '', refusal: null }));
    for (const delta of textDeltas) await write(chunk({ content: delta }));
    if (answer.type === 'drop') {
      serverDropped = true;
      res.socket?.destroy();
      return;
    }
    if (answer.type === 'hang') return; // stays open until the client goes away
    for (const [index, call] of toolCalls.entries()) {
      await write(
        chunk({
          tool_calls: [
            { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
          ],
        }),
      );
      for (const piece of cutInPieces(call.arguments, call.pieces)) {
        await write(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
      }
    }
    await write(chunk({}, finishReason));
    if (includeUsage && usageJson) await write(envelope([], { usage: usageJson }));
    complete = true;
    res.end('data: [DONE]\n\n');
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address();

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    providerEnv(extra = {}) {
      return {
        PLANWRIGHT_AI_PROVIDER: 'openai-compatible',
        PLANWRIGHT_AI_BASE_URL: `http://127.0.0.1:${port}/v1`,
        PLANWRIGHT_AI_MODEL: 'test-model',
        PLANWRIGHT_AI_MAX_RETRIES: '0',
        ...extra,
      };
    },
    requests,
    script(...answers) {
      queue.splice(0, queue.length, ...answers);
    },
    enqueue(...answers) {
      queue.push(...answers);
    },
    setDefaultAnswer(answer) {
      defaultAnswer = answer;
    },
    waitForRequests(count) {
      if (requests.length >= count) return Promise.resolve();
      return new Promise((resolve) => requestWaiters.push({ count, resolve }));
    },
    waitForClientDisconnect(index) {
      if (requests[index]?.clientDisconnected) return Promise.resolve();
      return new Promise((resolve) => {
        const list = disconnectWaiters.get(index) ?? [];
        list.push(resolve);
        disconnectWaiters.set(index, list);
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
