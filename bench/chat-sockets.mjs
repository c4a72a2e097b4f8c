// Chat sockets for benchmarks: an authenticated chat WebSocket that keeps every frame with its arrival
// time, waiting for a frame, and a process's resident memory. Used by chat-relay.mjs and load.mjs.
import { readFileSync } from 'node:fs';
import WebSocket from 'ws';
import { startOpenAiStreamServer } from '../tests/support/openai-stream-server.mjs';

/** The resident set size of process `pid` in KiB (Linux /proc). */
export function rssKiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
}

/** Opens chat `chatId` on document `documentId` with session `token`; resolves once it is authenticated. */
export async function openChat(serverUrl, token, documentId, chatId) {
  const ws = new WebSocket(`${serverUrl.replace('http', 'ws')}/ws/document/${documentId}/chat/${chatId}/`);
  const chat = { ws, frames: [], waiters: [] };
  ws.on('message', (data) => {
    const at = performance.now();
    chat.frames.push({ at, frame: JSON.parse(data.toString()) });
    for (const wake of chat.waiters.splice(0)) wake();
  });
  ws.on('close', () => {
    chat.closed = true;
    for (const wake of chat.waiters.splice(0)) wake();
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  // The token goes inside the protocol, as the SDK sends it: one in the URL is refused (4400).
  ws.send(JSON.stringify({ type: 'authenticate', token }));
  const authenticated = await waitFor(chat, (f) => f.type === 'authenticated', 0, 30_000);
  if (!authenticated) throw new Error(`chat ${chatId} was not authenticated`);
  return chat;
}

/**
 * The first frame from index `from` on that `match`es, with its arrival time; `undefined` when the socket
 * closed or `timeoutMs` passed first (a stuck answer fails the benchmark's count instead of hanging it).
 */
export async function waitFor(chat, match, from, timeoutMs = 120_000) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const found = chat.frames.slice(from).find((entry) => match(entry.frame));
    if (found) return found;
    const left = deadline - performance.now();
    if (chat.closed || left <= 0) return undefined;
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, left);
      chat.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

/**
 * The relay latencies of one round, per answer: which model request was whose (the model saw each chat's
 * `${prefix}-${index}` marker as the last user message), then from the first text chunk the model wrote to the
 * chat's first `ai` frame, and from each chunk to the frame that carried it. Chunks arriving together go out
 * as one cumulative frame: chunk k reached the client with the first frame whose text is at least as long as
 * the answer through chunk k (`cumulative[k]`). `chunkStamps` maps a request index to its chunks' write times.
 */
function relayLatencies({ requests, from, prefix, chats, starts, chunkStamps, cumulative }) {
  const answers = [];
  for (let r = from; r < requests.length; r++) {
    const last = requests[r]?.body?.messages?.filter((m) => m.role === 'user').at(-1);
    const marker = new RegExp(`${prefix}-(\\d+)`).exec(JSON.stringify(last?.content ?? ''));
    if (!marker) continue;
    const index = Number(marker[1]);
    const aiFrames = chats[index].frames.slice(starts[index]).filter((entry) => entry.frame.type === 'ai');
    const stamps = chunkStamps.get(r) ?? [];
    if (aiFrames.length === 0 || stamps.length === 0) continue;
    const perChunk = [];
    let frame = 0;
    for (let k = 0; k < stamps.length; k++) {
      while (frame < aiFrames.length && aiFrames[frame].frame.content.length < cumulative[k]) frame++;
      if (frame === aiFrames.length) break;
      perChunk.push(aiFrames[frame].at - stamps[k]);
    }
    answers.push({ firstFrame: aiFrames[0].at - stamps[0], perChunk, frames: aiFrames.length });
  }
  return answers;
}

/**
 * A local model speaking OpenAI's streaming wire format that answers `words`, one chunk every `chunkIntervalMs`
 * (0: all at once), and notes when it wrote each text chunk. `holdRound(count)` makes the next round's answers
 * start together once `count` more requests are in (the relay of concurrent streams is measured, not the turns'
 * set-up queued behind each other); `startEachAtOnce()` lets every answer start as its request arrives.
 * `latencies(round)` gives a finished round's relay latencies ({@link relayLatencies}).
 */
export async function startPacedModel(words, chunkIntervalMs) {
  const chunkStamps = new Map();
  let barrier = { count: 0, open: Promise.resolve() };
  const model = await startOpenAiStreamServer({
    defaultAnswer: { type: 'answer', text: words },
    onChunk: async ({ requestIndex, chunkIndex, data }) => {
      if (chunkIndex === 0 && requestIndex >= barrier.count) await barrier.open;
      else if (chunkIntervalMs > 0) await new Promise((resolve) => setTimeout(resolve, chunkIntervalMs));
      if (!/"content":"[^"]/.test(data)) return;
      const list = chunkStamps.get(requestIndex) ?? [];
      list.push(performance.now());
      chunkStamps.set(requestIndex, list);
    },
  });
  const cumulative = words.map((_, k) => words.slice(0, k + 1).join('').length);
  return {
    model,
    holdRound(count) {
      const from = model.requests.length;
      barrier = { count: from, open: model.waitForRequests(from + count) };
    },
    startEachAtOnce() {
      barrier = { count: Number.POSITIVE_INFINITY, open: Promise.resolve() };
    },
    latencies: ({ from, prefix, chats, starts }) =>
      relayLatencies({ requests: model.requests, from, prefix, chats, starts, chunkStamps, cumulative }),
  };
}
