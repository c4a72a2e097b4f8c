import {
  COMMENT_QUOTE_MAX_LENGTH,
  type CommentAuthor,
  type CommentMessage,
  type CommentThread,
  type DocumentOutline,
} from '@planwright/sdk';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { currentUserQuery } from '../account/account-queries';
import { usePlanwrightClient } from '../api/use-planwright-client';
import type { CursorContext } from '../editor';
import { sharingFailure } from '../sharing/sharing-queries';
import { Alert } from '../ui/alert';
import { LoadError } from '../ui/load-error';
import { LoadingStatus } from '../ui/loading-status';
import { TimeLabel } from '../ui/time-label';
import type { PlanWorkspace } from '../workspace/plan-workspace';
import type { Selection } from '../workspace/selection-url';
import { commentsQuery, useCommentActions, useLiveComments } from './comment-queries';
import { COMMENT_TEXTS as TEXTS } from './comment-texts';

type StatusFilter = keyof typeof TEXTS.statuses;

/** A thread someone pointed at in the canvas; `seq` grows with each click, so clicking it again shows it again. */
export interface ActiveThread {
  id: string;
  seq: number;
}
type Run = (call: () => Promise<unknown>) => Promise<boolean>;

function authorName(author: CommentAuthor | null): string {
  if (!author) return TEXTS.someone;
  return `${author.first_name} ${author.last_name}`.trim() || author.username;
}

/**
 * The plan's comments (docs/teams.md "Comments"; workspace SPEC W44): the threads filtered by section and by
 * open/resolved, each with its quote, messages, a reply, Resolve or Reopen, and Edit and Delete on one's own
 * messages; a new thread on the selected subsection, quoting the selected text. Read again whenever the server
 * says the comments changed. `canComment` is false for viewers: they read only.
 */
export function CommentsPanel({
  workspace,
  selection,
  outline,
  canComment,
  cursor = null,
  linkedThread = null,
  activeThread = null,
}: {
  workspace: PlanWorkspace;
  selection: Selection;
  /** Where the editor's selection is: a new thread goes on the subsection of the text selected there. */
  cursor?: CursorContext | null;
  outline: DocumentOutline;
  canComment: boolean;
  /** A thread a link named (a mention e-mail's): shown whatever its status, scrolled to and focused once. */
  linkedThread?: string | null;
  /** A thread clicked in the canvas: marked and scrolled into view, the focus left in the text. */
  activeThread?: ActiveThread | null;
}) {
  const client = usePlanwrightClient();
  const threads = useQuery(commentsQuery(client, workspace.uuid));
  const me = useQuery(currentUserQuery(client));
  useLiveComments(workspace.live, workspace.uuid);
  const actions = useCommentActions(workspace.uuid);
  const [status, setStatus] = useState<StatusFilter>(linkedThread ? 'all' : 'open');
  const [reached, setReached] = useState(false);
  const [section, setSection] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const headingId = useId();
  const sectionId = useId();
  const statusId = useId();
  const run: Run = async (call) => {
    setFailure(null);
    try {
      await call();
      return true;
    } catch (error) {
      setFailure(sharingFailure(error, TEXTS.failed));
      return false;
    }
  };

  // A clicked thread is shown whatever the filters said.
  // biome-ignore lint/correctness/useExhaustiveDependencies: on each click only; the filters change freely after.
  useEffect(() => {
    if (!activeThread) return;
    setSection('');
    const clicked = threads.data?.find((thread) => thread.id === activeThread.id);
    if (clicked && clicked.status !== status) setStatus('all');
  }, [activeThread]);

  const subsectionTitles = new Map<string, { title: string; section: string }>();
  for (const candidate of outline.sections) {
    for (const subsection of candidate.subsections) {
      subsectionTitles.set(subsection.uuid, { title: subsection.displayTitle, section: candidate.uuid });
    }
  }
  const shown = (threads.data ?? []).filter(
    (thread) =>
      (status === 'all' || thread.status === status) &&
      (section === '' || subsectionTitles.get(thread.subsection_uuid ?? '')?.section === section),
  );
  // The subsection of the text selected in the editor, else the one chosen in the sidebar.
  const targetUuid = cursor?.subsectionUuid ?? selection.subsectionUuid;
  const target = targetUuid ? subsectionTitles.get(targetUuid) : undefined;

  let list: ReactNode;
  if (threads.data) {
    list =
      shown.length === 0 ? (
        <p className="text-sm opacity-80">{TEXTS.none[status]}</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {shown.map((thread) => (
            <li key={thread.id}>
              <ThreadCard
                uuid={workspace.uuid}
                thread={thread}
                where={subsectionTitles.get(thread.subsection_uuid ?? '')?.title ?? TEXTS.unknownSubsection}
                myId={me.data?.id ?? null}
                canComment={canComment}
                run={run}
                onReveal={(anchor) => workspace.revealComment(anchor)}
                focusOnMount={!reached && thread.id === linkedThread}
                onFocused={() => setReached(true)}
                active={activeThread?.id === thread.id ? activeThread.seq : null}
              />
            </li>
          ))}
        </ul>
      );
  } else if (threads.isError) {
    list = <LoadError title={TEXTS.loadFailed} onRetry={() => void threads.refetch()} />;
  } else {
    list = <LoadingStatus>{TEXTS.loading}</LoadingStatus>;
  }

  return (
    <section aria-labelledby={headingId} className="flex h-full min-h-0 flex-col bg-base-100">
      <div className="flex flex-col gap-2 border-b border-base-300 px-4 py-3">
        <h2 id={headingId} className="font-semibold">
          {TEXTS.panel}
        </h2>
        <div className="flex flex-wrap gap-2">
          <div className="flex min-w-36 flex-1 flex-col gap-1 text-sm">
            <label htmlFor={sectionId}>{TEXTS.section}</label>
            <select
              id={sectionId}
              className="select select-sm w-full"
              value={section}
              onChange={(event) => setSection(event.target.value)}
            >
              <option value="">{TEXTS.allSections}</option>
              {outline.sections.map((candidate) => (
                <option key={candidate.uuid} value={candidate.uuid}>
                  {candidate.displayTitle}
                </option>
              ))}
            </select>
          </div>
          <div className="flex flex-col gap-1 text-sm">
            <label htmlFor={statusId}>{TEXTS.status}</label>
            <select
              id={statusId}
              className="select select-sm w-28"
              value={status}
              onChange={(event) => {
                const chosen = (['open', 'resolved', 'all'] as const).find(
                  (value) => value === event.target.value,
                );
                if (chosen) setStatus(chosen);
              }}
            >
              {(['open', 'resolved', 'all'] as const).map((value) => (
                <option key={value} value={value}>
                  {TEXTS.statuses[value]}
                </option>
              ))}
            </select>
          </div>
        </div>
      </div>
      <div className="flex min-h-0 flex-1 flex-col gap-3 overflow-y-auto p-4">
        {failure && <Alert kind="error">{failure}</Alert>}
        {canComment &&
          (target && targetUuid ? (
            <NewThreadForm
              label={TEXTS.newLabel(target.title)}
              onSubmit={(body) => {
                const quote = Array.from(workspace.selectedText().trim())
                  .slice(0, COMMENT_QUOTE_MAX_LENGTH)
                  .join('');
                const subsection = targetUuid;
                // The selected text's place, which follows it through everyone's edits (null for a caret).
                const anchor = quote === '' ? null : workspace.commentAnchor();
                return run(() => actions.create.mutateAsync({ subsection, body, quote, anchor }));
              }}
            />
          ) : (
            <p className="text-sm opacity-80">{TEXTS.pickSubsection}</p>
          ))}
        {list}
      </div>
    </section>
  );
}

/** A text area with its button, emptied once what it sent was taken. */
function NewThreadForm({ label, onSubmit }: { label: string; onSubmit: (body: string) => Promise<boolean> }) {
  const [body, setBody] = useState('');
  const [busy, setBusy] = useState(false);
  const id = useId();
  const hintId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    void onSubmit(body).then((sent) => {
      setBusy(false);
      if (sent) setBody('');
    });
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium" dir="auto">
        {label}
      </label>
      <textarea
        id={id}
        className="textarea textarea-sm w-full"
        rows={3}
        required
        aria-describedby={hintId}
        value={body}
        onChange={(event) => setBody(event.target.value)}
      />
      <p id={hintId} className="text-xs opacity-80">
        {TEXTS.newHint}
      </p>
      <button type="submit" className="btn btn-primary btn-sm self-end" disabled={busy}>
        {busy ? TEXTS.sending : TEXTS.comment}
      </button>
    </form>
  );
}

function ThreadCard({
  uuid,
  thread,
  where,
  myId,
  canComment,
  run,
  onReveal,
  focusOnMount,
  onFocused,
  active,
}: {
  /** Set while this thread is the one clicked in the canvas; a new value scrolls it into view again. */
  active: number | null;
  /** Selects the thread's text in the editor; false when it is gone. */
  onReveal: (anchor: string) => boolean;
  /** Scroll to this thread and focus it (a link named it). */
  focusOnMount: boolean;
  onFocused: () => void;
  uuid: string;
  thread: CommentThread;
  where: string;
  myId: string | null;
  canComment: boolean;
  run: Run;
}) {
  const actions = useCommentActions(uuid);
  const [reply, setReply] = useState('');
  const [gone, setGone] = useState(false);
  const replyId = useId();
  const headingId = useId();
  const resolved = thread.status === 'resolved';
  const articleRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!focusOnMount || !articleRef.current) return;
    articleRef.current.scrollIntoView({ block: 'nearest' });
    articleRef.current.focus();
    onFocused();
  }, [focusOnMount, onFocused]);
  useEffect(() => {
    if (active !== null) articleRef.current?.scrollIntoView({ block: 'nearest' });
  }, [active]);
  const sendReply = (event: FormEvent) => {
    event.preventDefault();
    void run(() => actions.reply.mutateAsync({ thread: thread.id, body: reply })).then((sent) => {
      if (sent) setReply('');
    });
  };
  return (
    <article
      ref={articleRef}
      tabIndex={-1}
      aria-labelledby={headingId}
      data-comment-thread={thread.id}
      aria-current={active !== null ? 'true' : undefined}
      className={`flex flex-col gap-2 rounded-box border p-3 ${active !== null ? 'border-primary ring-2 ring-primary' : 'border-base-300'} ${resolved ? 'opacity-90' : ''}`}
    >
      <header className="flex flex-wrap items-center gap-2">
        <h3 id={headingId} className="min-w-0 flex-1 truncate text-sm font-semibold" dir="auto">
          {where}
        </h3>
        <span className={`badge badge-sm ${resolved ? 'badge-ghost' : 'badge-info'}`}>
          {resolved ? TEXTS.resolved : TEXTS.open}
        </span>
      </header>
      {thread.quote !== '' && (
        <blockquote
          className="border-l-4 border-base-300 pl-2 text-sm italic [overflow-wrap:anywhere]"
          dir="auto"
        >
          {thread.quote}
        </blockquote>
      )}
      {thread.anchor !== null && (
        <div className="flex flex-wrap items-center gap-2">
          <button
            type="button"
            className="btn btn-ghost btn-xs"
            onClick={() => setGone(!onReveal(thread.anchor ?? ''))}
          >
            {TEXTS.showInText}
          </button>
          {gone && <span className="text-xs opacity-80">{TEXTS.textGone}</span>}
        </div>
      )}
      <ol className="flex flex-col gap-2">
        {thread.messages.map((message) => (
          <li key={message.id}>
            <MessageItem
              uuid={uuid}
              threadId={thread.id}
              message={message}
              mine={message.author !== null && message.author.id === myId}
              canComment={canComment}
              run={run}
            />
          </li>
        ))}
      </ol>
      {canComment && (
        <div className="flex flex-col gap-2">
          <form onSubmit={sendReply} className="flex flex-col gap-1">
            <label htmlFor={replyId} className="sr-only">
              {TEXTS.replyLabel}
            </label>
            <textarea
              id={replyId}
              className="textarea textarea-sm w-full"
              rows={2}
              required
              placeholder={TEXTS.reply}
              value={reply}
              onChange={(event) => setReply(event.target.value)}
            />
            <div className="flex justify-end gap-2">
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                onClick={() =>
                  void run(() =>
                    actions.setStatus.mutateAsync({
                      thread: thread.id,
                      status: resolved ? 'open' : 'resolved',
                    }),
                  )
                }
              >
                {resolved ? TEXTS.reopen : TEXTS.resolve}
              </button>
              <button type="submit" className="btn btn-sm">
                {TEXTS.reply}
              </button>
            </div>
          </form>
        </div>
      )}
    </article>
  );
}

function MessageItem({
  uuid,
  threadId,
  message,
  mine,
  canComment,
  run,
}: {
  uuid: string;
  threadId: string;
  message: CommentMessage;
  mine: boolean;
  canComment: boolean;
  run: Run;
}) {
  const actions = useCommentActions(uuid);
  const [editing, setEditing] = useState<string | null>(null);
  const editId = useId();
  if (message.deleted) return <p className="text-sm italic opacity-80">{TEXTS.deleted}</p>;
  return (
    <div className="flex flex-col gap-1">
      <p className="text-xs opacity-80">
        <span className="font-medium">{authorName(message.author)}</span> ·{' '}
        <TimeLabel value={message.created_at} />
        {message.edited_at !== null && ` ${TEXTS.edited}`}
      </p>
      {editing === null ? (
        <p className="whitespace-pre-wrap text-sm [overflow-wrap:anywhere]" dir="auto">
          {message.body}
        </p>
      ) : (
        <form
          className="flex flex-col gap-1"
          onSubmit={(event) => {
            event.preventDefault();
            void run(() =>
              actions.edit.mutateAsync({ thread: threadId, message: message.id, body: editing }),
            ).then((saved) => saved && setEditing(null));
          }}
        >
          <label htmlFor={editId} className="sr-only">
            {TEXTS.editLabel}
          </label>
          <textarea
            id={editId}
            className="textarea textarea-sm w-full"
            rows={2}
            required
            value={editing}
            onChange={(event) => setEditing(event.target.value)}
          />
          <div className="flex justify-end gap-2">
            <button type="button" className="btn btn-ghost btn-xs" onClick={() => setEditing(null)}>
              {TEXTS.cancel}
            </button>
            <button type="submit" className="btn btn-xs">
              {TEXTS.save}
            </button>
          </div>
        </form>
      )}
      {mine && canComment && editing === null && (
        <div className="flex gap-1">
          <button type="button" className="btn btn-ghost btn-xs" onClick={() => setEditing(message.body)}>
            {TEXTS.edit}
          </button>
          <button
            type="button"
            className="btn btn-ghost btn-xs"
            onClick={() =>
              void run(() => actions.remove.mutateAsync({ thread: threadId, message: message.id }))
            }
          >
            {TEXTS.delete}
          </button>
        </div>
      )}
    </div>
  );
}
