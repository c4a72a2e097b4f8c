import type { CommentAuthor, CommentMessage, CommentThread, Section } from '@planwright/sdk';
import { terminalLines, terminalText } from '../display/terminal-text.js';
import { formatTimestamp } from '../display/timestamp.js';
import { UNTITLED_SUBSECTION } from './outline-lines.js';
import { memberName } from './sharing-views.js';

/** The words the web's Comments panel uses for the same things (packages/web/src/comments/comment-texts.ts). */
const COMMENT_WORDS = {
  deleted: '(deleted)',
  edited: '(edited)',
  someone: 'Someone',
  removedSubsection: 'A removed subsection',
  none: 'No comments.',
  noneOpen: 'No open comments.',
} as const;

/** A subsection's title as printed: made safe, "Untitled Subsection" when blank. */
export function subsectionLabel(title: string): string {
  return terminalText(title).trim() || UNTITLED_SUBSECTION;
}

/** `planwright comment` for people: `Commented on “Market and Traction” (<thread id>).` */
export function commentedLine(subsectionTitle: string, thread: CommentThread): string {
  return `Commented on “${subsectionLabel(subsectionTitle)}” (${terminalText(thread.id)}).`;
}

/**
 * `planwright comments` for people: per thread a header (the subsection's title, open or resolved, the quoted
 * text), then each message indented: who and when (`(edited)`), and under it the text, its line breaks kept.
 * Threads are separated by a blank line, in the server's order (oldest first).
 *
 * @param sections the document's outline, to name each thread's subsection (a thread keeps its subsection's
 * uuid after the subsection is removed: it is then "A removed subsection", as in the web).
 */
export function commentThreadLines(
  threads: readonly CommentThread[],
  sections: readonly Section[],
  options: { open: boolean },
): string[] {
  if (threads.length === 0) return [options.open ? COMMENT_WORDS.noneOpen : COMMENT_WORDS.none];
  const titles = new Map(
    sections.flatMap((section) => section.subsections.map((sub) => [sub.uuid, sub.title] as const)),
  );
  return threads.flatMap((thread, index) => {
    const title = titles.get(thread.subsection_uuid ?? '');
    const where = title === undefined ? COMMENT_WORDS.removedSubsection : subsectionLabel(title);
    const quote = terminalText(thread.quote).trim();
    const header = [where, thread.status, ...(quote === '' ? [] : [`“${quote}”`])].join(' · ');
    return [...(index === 0 ? [] : ['']), header, ...thread.messages.flatMap(messageLines)];
  });
}

function messageLines(message: CommentMessage): string[] {
  const edited = !message.deleted && message.edited_at !== null ? ` ${COMMENT_WORDS.edited}` : '';
  const heading = `  ${authorName(message.author)} · ${formatTimestamp(message.created_at)}${edited}`;
  const body = message.deleted ? [COMMENT_WORDS.deleted] : terminalLines(message.body.trim());
  return [heading, ...body.map((line) => (line.trim() === '' ? '' : `    ${line}`))];
}

/** First and last name, else the username; "Someone" for an account that is gone. */
function authorName(author: CommentAuthor | null): string {
  return author === null
    ? COMMENT_WORDS.someone
    : terminalText(memberName(author)).trim() || COMMENT_WORDS.someone;
}
