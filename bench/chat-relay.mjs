#!/usr/bin/env node
// Chat relay overhead (issue 8): the built server's `openai-compatible` provider streams from a local server
// speaking OpenAI's wire format that answers instantly; 50 chats ask at once. Measured in this process,
// on one clock: from the model server's first byte to the client's first `ai` frame, and from each text
// chunk written to the `ai` frame that carries it. Then the server's memory with 200 idle connected chats.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { json as requestJson, signIn, signUpVerified } from './accounts.mjs';
import { startBuiltServer } from './built-server.mjs';
import { openChat, rssKiB, startPacedModel, waitFor } from './chat-sockets.mjs';
import { summarize } from './stats.mjs';

const CHATS = Number(process.env.BENCH_CHATS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const CHUNKS = 40;
/** The model server's pace: one chunk every this many ms per stream (100 tokens/s, faster than most models); 0 = all at once. */
const WORDS = Array.from({ length: CHUNKS }, (_, i) => `word${i} `);
const CHUNK_INTERVAL_MS = Number(process.env.BENCH_CHUNK_INTERVAL_MS ?? 10);
const IDLE = 200;
/** `BENCH_CHAT_DATABASE`: `postgres` (default: a throwaway cluster, the tests' own helper) or `pglite`. */
const DATABASE = process.env.BENCH_CHAT_DATABASE ?? 'postgres';
const root = fileURLToPath(new URL('../', import.meta.url));
const PASSWORD = 'a-sturdy-benchmark-passphrase';

// The model starts answering a round once every chat's request is in: the measure is the relay of 50
// concurrent streams, not the turns' set-up (context assembly, database writes) queued behind each other.
const paced = await startPacedModel(WORDS, CHUNK_INTERVAL_MS);
const { model } = paced;
const dataDir = mkdtempSync(join(tmpdir(), 'planwright-bench-chat-'));
const postgres =
  DATABASE === 'postgres'
    ? await (await tsImport(join(root, 'tests/support/postgres.ts'), import.meta.url)).startPostgres()
    : null;
const server = await startBuiltServer(dataDir, {
  ...model.providerEnv({ PLANWRIGHT_AI_MODEL: 'bench-model', PLANWRIGHT_AI_CALLS_PER_MINUTE: '100000' }),
  // One account holds every chat here: the per-account socket cap (4429) is not what is measured.
  CHAT_SOCKETS_PER_USER: String(CHATS + IDLE + 10),
  ...(postgres ? { DATABASE_URL: await postgres.createDatabase() } : {}),
});

/** An API call as the signed-in user; the parsed answer, or a throw on 4xx/5xx. */
const json = async (path, { token, ...options } = {}) =>
  (
    await requestJson(`${server.url}${path}`, {
      ...options,
      headers: token ? { 'x-session-token': token } : {},
    })
  ).body;

try {
  const email = 'bench-chat@example.com';
  await signUpVerified(server.url, dataDir, email, PASSWORD);
  const { token } = await signIn(server.url, email, PASSWORD);
  const document = await json('/api/v1/documents/', {
    method: 'POST',
    token,
    body: { title: 'Relay bench' },
  });

  const chats = [];
  for (let i = 0; i < CHATS; i++) {
    const created = await json('/api/v1/chats/', {
      method: 'POST',
      token,
      body: { target: 'document', object_id: document.uuid },
    });
    chats.push(await openChat(server.url, token, document.uuid, created.id));
  }

  /** One scenario: `rounds` rounds of every chat asking at once; the first round warms up and is not counted. */
  async function measure(aligned, rounds) {
    const result = { firstFrame: [], perChunk: [], framesPerAnswer: [], turns: 0 };
    for (let round = 0; round < rounds; round++) {
      const starts = chats.map((chat) => chat.frames.length);
      const requestsBefore = model.requests.length;
      if (aligned) paced.holdRound(CHATS);
      else paced.startEachAtOnce();
      const tag = `${aligned ? 'a' : 'n'}${round}`;
      for (const [i, chat] of chats.entries()) {
        chat.ws.send(
          JSON.stringify({ type: 'message', message: `bench-${tag}-${i}`, client_id: `${tag}-c${i}` }),
        );
      }
      await Promise.all(
        chats.map((chat, i) => waitFor(chat, (f) => f.type === 'end_of_response', starts[i])),
      );
      if (round === 0) continue;
      const answers = paced.latencies({ from: requestsBefore, prefix: `bench-${tag}`, chats, starts });
      for (const answer of answers) {
        result.firstFrame.push(answer.firstFrame);
        result.perChunk.push(...answer.perChunk);
        result.framesPerAnswer.push(answer.frames);
        result.turns++;
      }
    }
    return result;
  }

  const aligned = await measure(true, ROUNDS);
  const natural = await measure(false, ROUNDS);

  const percentile = (values, q) => {
    const sorted = [...values].sort((a, b) => a - b);
    return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] * 100) / 100;
  };
  for (const chat of chats) chat.ws.close(1000);

  // Memory: the server after the relay runs, then with 200 idle connected chats more.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const before = rssKiB(server.pid);
  const idle = [];
  for (let i = 0; i < IDLE; i++) {
    const created = await json('/api/v1/chats/', {
      method: 'POST',
      token,
      body: { target: 'document', object_id: document.uuid },
    });
    idle.push(await openChat(server.url, token, document.uuid, created.id));
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  const after = rssKiB(server.pid);
  for (const chat of idle) chat.ws.close(1000);

  const p = (values, q) => percentile(values, q);
  const first = aligned.firstFrame;
  const chunk = aligned.perChunk;
  console.log(
    JSON.stringify({
      bench: 'chat-relay',
      title: `Chat relay: ${CHATS} concurrent chats, model answering at once`,
      method: `Built server on ${postgres ? 'PostgreSQL (a throwaway local Debian cluster, fsync off, as the tests run it)' : 'PGlite'} with the openai-compatible provider (AI SDK) pointed at a local server speaking OpenAI's streaming wire format (tests/support/openai-stream-server.mjs), run in the benchmark's process so both ends share one clock. ${CHATS} chat sockets send a message at the same moment; every answer is ${CHUNKS} text chunks, the first at once, then one every ${CHUNK_INTERVAL_MS} ms (100 tokens/s per chat, ${(CHATS * 1000) / CHUNK_INTERVAL_MS} chunks/s in all). ${ROUNDS - 1} counted rounds per scenario (one warm-up each). "Streaming" (the targets): the model server starts all ${CHATS} answers once every request is in, so the measure is the relay of ${CHATS} concurrent streams. "Arriving together": each answer starts as soon as its request arrives, so streams share the server with the other turns' set-up (context assembly and database work, in the server's one thread). First frame: from the first text chunk's write to the client's first \`ai\` frame (the AI SDK's parsing, our relay and the socket). Per chunk: from a chunk's write to the first \`ai\` frame carrying it (chunks that arrive together go out as one cumulative frame). Memory: the server's RSS (/proc) before and after ${IDLE} more authenticated idle chats.`,
      results: [
        {
          name: 'streaming: first chunk → first ai frame, p50',
          unit: 'ms',
          value: p(first, 0.5),
          target: '≤ 10 ms',
          pass: p(first, 0.5) <= 10,
        },
        {
          name: 'streaming: first chunk → first ai frame, p99',
          unit: 'ms',
          value: p(first, 0.99),
          target: '≤ 30 ms',
          pass: p(first, 0.99) <= 30,
        },
        {
          name: 'streaming: per forwarded chunk, p99',
          unit: 'ms',
          value: p(chunk, 0.99),
          target: '≤ 30 ms',
          pass: p(chunk, 0.99) <= 30,
        },
        {
          name: 'streaming: per forwarded chunk',
          unit: 'ms',
          ...summarize(chunk),
          target: 'reported',
          pass: null,
        },
        {
          name: 'streaming: ai frames per answer',
          unit: 'frames',
          ...summarize(aligned.framesPerAnswer),
          target: 'reported',
          pass: null,
        },
        {
          name: 'arriving together: first chunk → first ai frame',
          unit: 'ms',
          ...summarize(natural.firstFrame),
          target: 'reported',
          pass: null,
        },
        {
          name: 'arriving together: per forwarded chunk',
          unit: 'ms',
          ...summarize(natural.perChunk),
          target: 'reported',
          pass: null,
        },
        {
          name: `server memory for ${IDLE} idle chats`,
          unit: 'MiB',
          value: Math.round(((after - before) / 1024) * 10) / 10,
          target: 'reported',
          pass: null,
          spread: `RSS ${Math.round(before / 1024)} → ${Math.round(after / 1024)} MiB`,
        },
      ],
    }),
  );
} finally {
  await server.stop();
  await model.close();
  await postgres?.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
