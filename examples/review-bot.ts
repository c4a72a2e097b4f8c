/**
 * A review bot: for each section of a plan, asks the AI (over the realtime chat) to review it and prints
 * the answer and every change it proposes, as a word diff. Proposals are left pending: people decide in
 * the editor (or `planwright chat`), the bot only reads.
 *
 *   PLANWRIGHT_EMAIL=… PLANWRIGHT_PASSWORD=… npx tsx examples/review-bot.ts <plan uuid> [server-url]
 *
 * Node 20 has no global WebSocket, so the session gets `ws` as its socket factory. Each section waits
 * at most PLANWRIGHT_REVIEW_TIMEOUT_MS (default 120000) for the answer. Exits 1 with one line when
 * signing in, the plan or a chat fails.
 */
import {
  type ChatSession,
  type ChatSnapshot,
  type ChatSocket,
  type ChatSocketFactory,
  createPlanwrightClient,
} from '@planwright/sdk';
import type { DocumentJson } from '@planwright/sdk/model';
import { reviewProposal, type WordDiffPart } from '@planwright/sdk/proposals';
import WebSocket from 'ws';
import { failureLine, serverUrl, signInFromEnvironment } from './example-support.js';

/** `ws` speaks the browser WebSocket API the session uses. */
const nodeSocketFactory: ChatSocketFactory = (url) => new WebSocket(url) as unknown as ChatSocket;

const REVIEW_REQUEST =
  'Review this section as an investor would: say what is missing or unclear, and propose better text.';

/** Resolves with the first snapshot that passes `done`; rejects when the session fails or time runs out. */
function until(session: ChatSession, done: (snapshot: ChatSnapshot) => boolean, timeoutMs: number) {
  return new Promise<ChatSnapshot>((resolve, reject) => {
    const check = () => {
      const snapshot = session.getSnapshot();
      if (done(snapshot)) finish(() => resolve(snapshot));
      else if (snapshot.status === 'error')
        finish(() => reject(new Error(snapshot.error ?? 'the chat failed')));
    };
    const timer = setTimeout(() => {
      const { status, loading, messages } = session.getSnapshot();
      const state = `${status}, ${loading ? 'loading' : 'idle'}, ${messages.length} messages`;
      finish(() => reject(new Error(`no answer within ${timeoutMs} ms (${state})`)));
    }, timeoutMs);
    const unsubscribe = session.subscribe(check);
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      unsubscribe();
      settle();
    };
    check();
  });
}

/** A word diff on one line: `[-removed-]` and `{+added+}`, as `git diff --word-diff` writes it. */
function diffLine(parts: readonly WordDiffPart[]): string {
  return parts
    .map((part) =>
      part.kind === 'delete' ? `[-${part.text}-]` : part.kind === 'insert' ? `{+${part.text}+}` : part.text,
    )
    .join('');
}

/** Asks for a review of one section and prints the answer and its proposals. */
async function reviewSection(
  session: ChatSession,
  content: DocumentJson,
  title: string,
  timeoutMs: number,
): Promise<void> {
  session.connect();
  await until(session, (snapshot) => snapshot.status === 'connected', timeoutMs);
  const before = session.getSnapshot().messages.length;
  const sent = session.send(REVIEW_REQUEST);
  if (!sent.ok) throw new Error(`the chat refused the message (${sent.reason})`);
  // Done when an answer has finished streaming and nothing more is awaited (no tool call in progress).
  const answered = (snapshot: ChatSnapshot) =>
    snapshot.messages.slice(before).filter((message) => message.role === 'ai' && !message.isPartial);
  const done = await until(
    session,
    (snapshot) => answered(snapshot).length > 0 && !snapshot.loading && !snapshot.toolGenerating,
    timeoutMs,
  );
  const answers = answered(done);
  console.log(`## ${title}\n`);
  for (const answer of answers) console.log(`${answer.content.trim()}\n`);
  const pending = done.proposals.filter((proposal) => proposal.status === 'pending');
  if (pending.length === 0) console.log('(no proposal)\n');
  for (const [index, proposal] of pending.entries()) {
    const review = reviewProposal(content, proposal.toolName, proposal.payload);
    if (!review.ok) {
      console.log(`Proposal ${index + 1}: unreadable (${review.message})\n`);
      continue;
    }
    for (const item of review.items) {
      const where = item.subsectionTitle ?? item.sectionTitle ?? 'the plan';
      console.log(`Proposal ${index + 1} (${item.kind}) for "${where}":\n${diffLine(item.diff)}\n`);
    }
  }
}

const [documentUuid, serverArgument] = process.argv.slice(2);
const baseUrl = serverUrl(serverArgument);
const client = createPlanwrightClient({ baseUrl });
const timeoutMs = Number(process.env.PLANWRIGHT_REVIEW_TIMEOUT_MS) || 120_000;

try {
  if (!documentUuid) throw new Error('usage: review-bot.ts <plan uuid> [server-url]');
  await signInFromEnvironment(client);
  const plan = await client.documents.get(documentUuid);
  if (!plan.content) throw new Error(`"${plan.title}" has no content to review`);
  console.log(`# Review of "${plan.title}"\n`);
  for (const section of plan.sections) {
    const session = client.chatSession(
      { documentUuid, sectionUuid: section.uuid },
      { socketFactory: nodeSocketFactory },
    );
    try {
      await reviewSection(session, plan.content, section.title, timeoutMs);
    } finally {
      session.dispose();
    }
  }
} catch (error) {
  console.error(`${baseUrl}: ${failureLine(error)}`);
  process.exitCode = 1;
}
