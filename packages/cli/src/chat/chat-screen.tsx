import type { ChatMessage, ChatProposal, ChatSession } from '@planwright/sdk';
import type { WordDiffPart } from '@planwright/sdk/proposals';
import { Box, type Key, render, Text, useApp, useInput } from 'ink';
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { CliIo } from '../cli-io.js';
import { terminalText } from '../display/terminal-text.js';
import { contextLabel, type OpenedChat } from './open-chat.js';
import {
  decideCurrent,
  decideRest,
  initialChoices,
  moveCursor,
  type ProposalChoices,
  verdict,
} from './proposal-choices.js';
import {
  acceptReviewed,
  type DocumentAccess,
  type ReviewedProposal,
  reviewAgainst,
} from './proposal-decision.js';
import { colorEnabled, placeLabel, safeMultiline } from './proposal-text.js';

/** Props of {@link ChatScreen}. */
export interface ChatScreenProps {
  readonly chat: ChatSession;
  /** `Document > Section > Subsection`, already safe for the terminal. */
  readonly context: string;
  readonly access: DocumentAccess;
  /** Colour the diff and labels (T30); without colour, `{+inserted+}` and `[-deleted-]`. */
  readonly color: boolean;
  /** How many messages to show at most (older ones are counted, not shown). */
  readonly visibleMessages?: number;
}

type Review =
  | { readonly state: 'loading'; readonly toolId: string }
  | { readonly state: 'ready'; readonly reviewed: ReviewedProposal; readonly choices: ProposalChoices }
  | { readonly state: 'failed'; readonly toolId: string; readonly message: string };

const ROLE_LABELS: Record<ChatMessage['role'], string> = { user: 'You', ai: 'AI', system: 'System' };

const CTRL_C = String.fromCharCode(3);

/** What a chunk of keys adds to the message: its text and line breaks, never other control characters. */
function typedText(input: string): string {
  return Array.from(input)
    .filter((character) => {
      const code = character.codePointAt(0) ?? 0;
      return code === 10 || code === 13 || (code >= 32 && code !== 127);
    })
    .join('');
}

/**
 * The chat screen (T60–T72): the transcript with the answer streaming in, the status of the connection, the
 * first pending proposal as a word diff with a/r per change, and the message line. Everything from the AI
 * or the server goes through `terminalText` before it is drawn.
 */
export function ChatScreen({ chat, context, access, color, visibleMessages = 12 }: ChatScreenProps) {
  const snapshot = useSyncExternalStore(chat.subscribe, chat.getSnapshot);
  const { exit } = useApp();
  const [draft, setDraftState] = useState('');
  // Keys can arrive faster than renders: the draft is also kept where the next key sees it at once.
  const draftRef = useRef('');
  const setDraft = (next: string) => {
    draftRef.current = next;
    setDraftState(next);
  };
  // `auto`: a ready proposal takes the keys while nothing is typed (T63); Tab chooses explicitly.
  const [focusMode, setFocusMode] = useState<'auto' | 'message' | 'proposal'>('auto');
  const [review, setReview] = useState<Review | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [exitArmed, setExitArmed] = useState(false);
  const [applying, setApplying] = useState(false);

  const pending = snapshot.proposals.find((proposal) => proposal.status === 'pending') ?? null;

  const load = useCallback(
    (proposal: ChatProposal) => {
      setReview({ state: 'loading', toolId: proposal.toolId });
      access.load().then(
        (document) => {
          const reviewed = reviewAgainst(document, proposal);
          const count = reviewed.review.ok ? reviewed.review.items.length : 0;
          setReview({ state: 'ready', reviewed, choices: initialChoices(count) });
        },
        (error: unknown) =>
          setReview({
            state: 'failed',
            toolId: proposal.toolId,
            message: error instanceof Error ? error.message : String(error),
          }),
      );
    },
    [access],
  );

  // Each new pending proposal is reviewed against the document as the server has it now (T63).
  const reviewedId =
    review === null ? null : review.state === 'ready' ? review.reviewed.proposal.toolId : review.toolId;
  useEffect(() => {
    if (pending === null) {
      setReview(null);
      setFocusMode('auto');
      return;
    }
    if (reviewedId !== pending.toolId) load(pending);
  }, [pending, reviewedId, load]);

  const ready = review?.state === 'ready';
  const focus: 'message' | 'proposal' =
    review !== null && (focusMode === 'proposal' || (focusMode === 'auto' && ready && draft === ''))
      ? 'proposal'
      : 'message';

  const finish = async (reviewed: ReviewedProposal, choices: ProposalChoices) => {
    const outcome = verdict(choices);
    if (outcome === null) return;
    if (outcome.kind === 'reject') {
      chat.rejectProposal(reviewed.proposal.toolId);
      setNotice('Proposal rejected.');
      return;
    }
    setApplying(true);
    try {
      const full = reviewed.review.ok && reviewed.review.toolName === 'propose_full_subsection';
      const result = await acceptReviewed(
        reviewed,
        access,
        (toolId) => chat.acceptProposal(toolId),
        full ? undefined : outcome.edits,
      );
      if (result.kind === 'applied') {
        const edits = full ? '' : ` (${result.edits.length} ${result.edits.length === 1 ? 'edit' : 'edits'})`;
        setNotice(`Applied${edits} and saved: revision ${result.document.revision ?? '?'}.`);
      } else {
        setNotice(`Not applied: ${result.message} Press l to reload the document and review again.`);
        setReview({
          state: 'ready',
          reviewed,
          choices: initialChoices(reviewed.review.ok ? reviewed.review.items.length : 0),
        });
      }
    } catch (error) {
      setNotice(`Not applied: ${error instanceof Error ? error.message : String(error)}`);
      setReview({
        state: 'ready',
        reviewed,
        choices: initialChoices(reviewed.review.ok ? reviewed.review.items.length : 0),
      });
    } finally {
      setApplying(false);
    }
  };

  const onKey = (input: string, key: Key) => {
    // Two Ctrl+C pressed quickly can reach Ink as one chunk ("\u0003\u0003"), which it does not read as Ctrl+C.
    const interrupts = key.ctrl && input === 'c' ? 1 : input.split(CTRL_C).length - 1;
    if (interrupts > 0) {
      // Ctrl+C stops a running answer; a second one exits (T61).
      if (exitArmed || interrupts > 1) {
        exit();
        return;
      }
      setExitArmed(true);
      if (snapshot.loading && chat.stop()) setNotice('Stopping the answer… (Ctrl+C again to exit)');
      else setNotice('Press Ctrl+C again to exit.');
      return;
    }
    if (exitArmed) setExitArmed(false);
    if (key.tab) {
      setFocusMode(focus === 'message' && ready ? 'proposal' : 'message');
      return;
    }
    if (focus === 'proposal' && review !== null) {
      if (key.escape) setFocusMode('message');
      else if (input === 'l' && pending) {
        setNotice(null);
        load(pending);
      } else if (review.state === 'ready' && !applying) onProposalKey(input, key, review);
      return;
    }
    const typed = draftRef.current;
    if (key.return) {
      submit(typed);
      return;
    }
    if (key.backspace || key.delete) {
      setDraft(Array.from(typed).slice(0, -1).join(''));
      return;
    }
    if (key.ctrl || key.meta || key.escape || input === '') return;
    // Fast typing and pastes arrive as one chunk, Enter included: the text up to an Enter is sent. Other
    // control characters in a chunk are never text.
    const text = typedText(input);
    const enter = text.search(/[\r\n]/);
    if (enter < 0) setDraft(typed + text);
    else submit(typed + text.slice(0, enter));
  };
  // Ink subscribes a handler after each render; this one always runs the newest render's `onKey`.
  const latestKey = useRef(onKey);
  latestKey.current = onKey;
  useInput((input, key) => latestKey.current(input, key));

  const submit = (text: string) => {
    if (text.trim() === '') return;
    const sent = chat.send(text);
    if (sent.ok) {
      setDraft('');
      setNotice(null);
    } else {
      setDraft(text);
      setNotice(
        sent.reason === 'busy'
          ? 'Wait for the answer to finish (Ctrl+C stops it).'
          : `Not sent (${sent.reason}).`,
      );
    }
  };

  const onProposalKey = (
    input: string,
    key: { upArrow: boolean; downArrow: boolean },
    current: Extract<Review, { state: 'ready' }>,
  ) => {
    const { reviewed } = current;
    if (!reviewed.review.ok) {
      if (input === 'r' || input === 'R') {
        chat.rejectProposal(reviewed.proposal.toolId);
        setNotice('Proposal rejected.');
      }
      return;
    }
    const items = reviewed.review.items;
    let choices = current.choices;
    if (key.upArrow) choices = moveCursor(choices, -1);
    else if (key.downArrow) choices = moveCursor(choices, 1);
    else if (input === 'a' || input === 'A') {
      const open =
        input === 'A'
          ? items.filter((_, index) => choices.decisions[index] === null)
          : [items[choices.cursor]];
      const broken = open.find((item) => item?.problem);
      if (broken) {
        setNotice(
          `Edit ${broken.editIndex + 1} no longer applies: ${broken.problem?.message ?? ''} Press r to reject it.`,
        );
        return;
      }
      choices = input === 'A' ? decideRest(choices, true) : decideCurrent(choices, true);
    } else if (input === 'r') choices = decideCurrent(choices, false);
    else if (input === 'R') choices = decideRest(choices, false);
    else return;
    setReview({ ...current, choices });
    void finish(reviewed, choices);
  };

  const shown = snapshot.messages.slice(-visibleMessages);
  const hidden = snapshot.messages.length - shown.length;
  const streaming = snapshot.messages.some((message) => message.isPartial);
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>Chat</Text> · {context}
        {snapshot.provider ? <Text dimColor> · {terminalText(snapshot.provider)}</Text> : null}
      </Text>
      <StatusLine chat={snapshot} color={color} />
      {hidden > 0 ? <Text dimColor>({hidden} earlier messages)</Text> : null}
      {shown.map((message) => (
        <MessageView key={message.id} message={message} color={color} />
      ))}
      {snapshot.loading && !streaming ? <Text dimColor>Thinking…</Text> : null}
      {snapshot.toolExecution.message && review === null ? (
        <Text dimColor>{terminalText(snapshot.toolExecution.message)}</Text>
      ) : null}
      {review ? (
        <ReviewView review={review} color={color} focused={focus === 'proposal'} applying={applying} />
      ) : null}
      {notice ? <Text color={color ? 'yellow' : undefined}>{terminalText(notice)}</Text> : null}
      <Text>
        <Text bold={focus === 'message'}>{'> '}</Text>
        {terminalText(draft)}
        {focus === 'message' ? '█' : ''}
      </Text>
      <Text dimColor>
        {focus === 'proposal'
          ? 'a accept · r reject (this change) · A/R all the rest · ↑/↓ change · Tab message · Ctrl+C stop/exit'
          : `Enter send${review?.state === 'ready' ? ' · Tab proposal' : ''} · Ctrl+C ${snapshot.loading ? 'stop' : 'exit'}`}
      </Text>
    </Box>
  );
}

function StatusLine({ chat, color }: { chat: ReturnType<ChatSession['getSnapshot']>; color: boolean }) {
  if (chat.status === 'error') {
    return <Text color={color ? 'red' : undefined}>Connection Error: {terminalText(chat.error ?? '')}</Text>;
  }
  const parts = [chat.status === 'connected' ? 'connected' : 'connecting…'];
  if (chat.historyLoading) parts.push('Loading chat history');
  if (chat.historyWarning) parts.push(terminalText(chat.historyWarning));
  return <Text dimColor>{parts.join(' · ')}</Text>;
}

function MessageView({ message, color }: { message: ChatMessage; color: boolean }) {
  const tint = !color
    ? undefined
    : message.role === 'user'
      ? 'cyan'
      : message.role === 'ai'
        ? 'green'
        : 'yellow';
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text bold color={tint}>
        {ROLE_LABELS[message.role]}
        {message.metadata.interrupted ? ' (interrupted)' : ''}
      </Text>
      <Text>
        {safeMultiline(message.content)}
        {message.isPartial ? '▍' : ''}
      </Text>
    </Box>
  );
}

function ReviewView({
  review,
  color,
  focused,
  applying,
}: {
  review: Review;
  color: boolean;
  focused: boolean;
  applying: boolean;
}) {
  if (review.state === 'loading') return <Text dimColor>Loading the document to review the proposal…</Text>;
  if (review.state === 'failed') {
    return (
      <Text color={color ? 'red' : undefined}>
        Cannot review the proposal: {terminalText(review.message)} (l to retry)
      </Text>
    );
  }
  const { reviewed, choices } = review;
  const border = color ? (focused ? 'cyan' : 'gray') : undefined;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={border} paddingX={1} marginTop={1}>
      <Text bold>Review proposed changes{applying ? ' — saving…' : ''}</Text>
      {!reviewed.review.ok ? (
        <Text>Cannot be read: {terminalText(reviewed.review.message)} (r to reject)</Text>
      ) : (
        reviewed.review.items.map((item, index) => {
          const decision = choices.decisions[index];
          const mark = decision === true ? '[accept]' : decision === false ? '[reject]' : '[ ? ]';
          const selected = index === choices.cursor;
          return (
            <Box key={item.editIndex} flexDirection="column" marginTop={index === 0 ? 0 : 1}>
              <Text bold={selected}>
                {selected ? '› ' : '  '}
                {mark} {reviewed.review.ok && reviewed.review.items.length > 1 ? `Edit ${index + 1}: ` : ''}
                {item.kind.replace('_', ' ')} in {placeLabel(item.sectionTitle, item.subsectionTitle)}
              </Text>
              {item.renamedTo !== null ? <Text> New title: {terminalText(item.renamedTo)}</Text> : null}
              {item.reason !== null ? <Text dimColor> Why: {terminalText(item.reason)}</Text> : null}
              <Box paddingLeft={4}>
                <DiffView diff={item.diff} color={color} />
              </Box>
              {item.problem ? (
                <Text color={color ? 'red' : undefined}>
                  {' '}
                  No longer applies: {terminalText(item.problem.message)}
                </Text>
              ) : null}
            </Box>
          );
        })
      )}
    </Box>
  );
}

/** A word diff (T62): insertions green and underlined, deletions red and struck through; markers without colour. */
export function DiffView({ diff, color }: { diff: readonly WordDiffPart[]; color: boolean }) {
  if (diff.length === 0) return <Text dimColor>(no text)</Text>;
  return (
    <Text>
      {diff.map((part, index) => {
        const text = safeMultiline(part.text);
        const key = `${index}-${part.kind}`;
        if (part.kind === 'equal') return <Text key={key}>{text}</Text>;
        if (!color) return <Text key={key}>{part.kind === 'insert' ? `{+${text}+}` : `[-${text}-]`}</Text>;
        return part.kind === 'insert' ? (
          <Text key={key} color="green" underline>
            {text}
          </Text>
        ) : (
          <Text key={key} color="red" strikethrough>
            {text}
          </Text>
        );
      })}
    </Text>
  );
}

/**
 * Runs the chat screen on the terminal until the person leaves it (T60): Ink renders on stdout, raw mode
 * takes Ctrl+C (so the first one can stop an answer), and the chat is closed on the way out.
 */
export async function runChatScreen(io: CliIo, opened: OpenedChat): Promise<void> {
  const { chat, target, access } = opened;
  chat.connect();
  const instance = render(
    <ChatScreen
      chat={chat}
      context={contextLabel(target)}
      access={access}
      color={colorEnabled(io, io.stdout)}
    />,
    {
      stdin: io.stdin as NodeJS.ReadStream,
      stdout: io.stdout as NodeJS.WriteStream,
      stderr: io.stderr as NodeJS.WriteStream,
      exitOnCtrlC: false,
      patchConsole: false,
    },
  );
  try {
    await instance.waitUntilExit();
  } finally {
    chat.dispose();
  }
}
