import type { ChatSession } from '@planwright/sdk';
import type { CliIo } from '../cli-io.js';
import { terminalText } from '../display/terminal-text.js';
import { untilSnapshot } from './chat-waits.js';
import type { OpenedChat } from './open-chat.js';
import {
  type AcceptOutcome,
  acceptReviewed,
  type ReviewedProposal,
  reviewAgainst,
} from './proposal-decision.js';
import { colorEnabled, proposalData, proposalLines, safeMultiline } from './proposal-text.js';

/** What a script asked to do with the proposals of the answer (T50). */
export type ProposalChoice = 'accept' | 'reject' | 'leave';

/** Options of {@link runChatScript}. */
export interface ChatScriptOptions {
  readonly message: string;
  readonly choice: ProposalChoice;
  readonly json: boolean;
  /** Files attached to the message (`--file`), already read. */
  readonly attachments?: readonly { name: string; content: string }[];
}

/** What a scripted chat came to; the command turns failures into its exit code (T53). */
export interface ChatScriptResult {
  /** Proposals that were to be accepted but were not (conflict or no longer applying). */
  readonly failed: readonly Extract<AcceptOutcome, { kind: 'conflict' | 'not_applied' }>[];
}

/**
 * JSON for one NDJSON line: C1 and bidirectional controls escaped too (JSON.stringify only escapes C0), so
 * a line shown on a terminal cannot act on it, while the data read back stays exactly the same (T52).
 */
export function jsonLine(event: Record<string, unknown>): string {
  return `${JSON.stringify(event).replace(
    /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )}\n`;
}

/**
 * `planwright chat <uuid> --message …` (T50–T56): connects, loads the history (so earlier proposals are not
 * taken for new ones), sends the message, streams the answer to stdout, then shows each new proposal and
 * accepts, rejects or leaves it as asked. With `json`, every step is one JSON object per line.
 */
export async function runChatScript(
  io: CliIo,
  opened: OpenedChat,
  options: ChatScriptOptions,
): Promise<ChatScriptResult> {
  const { chat, access } = opened;
  const out = (text: string) => io.stdout.write(text);
  const emit = (event: Record<string, unknown>) => out(jsonLine(event));
  const color = colorEnabled(io, io.stdout);

  chat.connect();
  await untilSnapshot(chat, (s) => s.status === 'connected');
  chat.requestHistory();
  await untilSnapshot(chat, (s) => !s.historyLoading);
  const known = new Set(chat.getSnapshot().proposals.map((proposal) => proposal.toolId));
  const systemSeen = new Set(chat.getSnapshot().messages.map((message) => message.id));
  if (options.json) {
    emit({
      type: 'connected',
      documentUuid: opened.target.scope.documentUuid,
      sectionUuid: opened.target.scope.sectionUuid ?? null,
      subsectionUuid: opened.target.scope.subsectionUuid ?? null,
    });
  }

  let streamed = '';
  const stopStream = chat.onStream((event) => {
    if (event.type === 'delta') {
      streamed += event.text;
      if (options.json) emit({ type: 'delta', text: event.text });
      else out(safeMultiline(event.text));
    } else if (event.type === 'reset') {
      streamed = event.content;
      if (options.json) emit({ type: 'reset', text: event.content });
      else out(`\n${safeMultiline(event.content)}`);
    }
  });
  const sent = chat.send(options.message, { attachments: [...(options.attachments ?? [])] });
  if (!sent.ok) {
    stopStream();
    chat.dispose();
    throw new Error(`the message was not sent (${sent.reason})`);
  }
  const done = await untilSnapshot(chat, (s) => !s.loading).finally(stopStream);
  if (!options.json && streamed !== '' && !streamed.endsWith('\n')) out('\n');

  // Rate limits and provider failures arrive as system messages: a script needs to see them.
  for (const message of done.messages) {
    if (message.role !== 'system' || systemSeen.has(message.id)) continue;
    if (options.json) emit({ type: 'system', text: message.content });
    else io.stderr.write(`${terminalText(message.content)}\n`);
  }

  const fresh = done.proposals.filter((proposal) => !known.has(proposal.toolId));
  const failed: Extract<AcceptOutcome, { kind: 'conflict' | 'not_applied' }>[] = [];
  let document = fresh.length > 0 ? await access.load() : null;
  for (const [index, proposal] of fresh.entries()) {
    if (document === null) break;
    const reviewed = reviewAgainst(document, proposal);
    if (options.json) emit({ type: 'proposal', ...proposalData(reviewed) });
    else out(`\n${proposalLines(reviewed, index + 1, color).join('\n')}\n`);

    if (options.choice === 'reject') {
      await recorded(chat, () => chat.rejectProposal(proposal.toolId));
      if (options.json) emit({ type: 'rejected', toolId: proposal.toolId });
      else out(`Rejected proposal ${index + 1}.\n`);
    } else if (options.choice === 'accept') {
      const outcome = await acceptOne(chat, reviewed, access);
      if (outcome.kind === 'applied') {
        document = outcome.document;
        if (options.json) {
          emit({
            type: 'applied',
            toolId: proposal.toolId,
            edits: outcome.edits,
            revision: document.revision,
          });
        } else {
          out(
            `Applied proposal ${index + 1} and saved the document (revision ${document.revision ?? '?'}).\n`,
          );
        }
      } else {
        failed.push(outcome);
        if (options.json) {
          emit({
            type: outcome.kind,
            toolId: proposal.toolId,
            message: outcome.message,
            ...(outcome.kind === 'not_applied' ? { reason: outcome.reason } : {}),
          });
        } else io.stderr.write(`Proposal ${index + 1} was not applied: ${terminalText(outcome.message)}\n`);
      }
    } else if (!options.json) {
      out(
        `Left pending: accept or reject it in \`planwright chat ${terminalText(opened.target.scope.documentUuid)}\` or in the web app.\n`,
      );
    }
  }
  const answer = [...done.messages].reverse().find((message) => message.role === 'ai');
  if (options.json) {
    emit({
      type: 'end',
      text: streamed,
      interrupted: answer?.metadata.interrupted === true,
      proposals: fresh.length,
    });
  }
  chat.dispose();
  return { failed };
}

/** Accepts and waits until the server has recorded the decision, so closing right after loses nothing. */
async function acceptOne(chat: ChatSession, reviewed: ReviewedProposal, access: OpenedChat['access']) {
  let outcome: AcceptOutcome | undefined;
  await recorded(chat, async () => {
    outcome = await acceptReviewed(reviewed, access, (toolId) => chat.acceptProposal(toolId));
    return outcome.kind === 'applied';
  });
  return outcome as AcceptOutcome;
}

/**
 * Runs `decide` and, when it sent a decision, waits for the server's `tool_executing` then `tool_complete`
 * (the snapshot's tool execution goes busy, then idle): the decision is stored by then (T54).
 */
async function recorded(chat: ChatSession, decide: () => boolean | Promise<boolean>): Promise<void> {
  let busy = false;
  let stop = () => {};
  const done = new Promise<void>((resolve) => {
    stop = chat.subscribe(() => {
      const { toolExecution, status } = chat.getSnapshot();
      if (toolExecution.state === 'executing') busy = true;
      else if (busy || status === 'error') resolve();
    });
  });
  try {
    if (await decide()) await done;
  } finally {
    stop();
  }
}
