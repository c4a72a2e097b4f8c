import type { WordDiffPart } from '@planwright/sdk/proposals';
import { type CliIo, readEnv, type TextSink } from '../cli-io.js';
import { terminalLines, terminalText } from '../display/terminal-text.js';
import type { ReviewedProposal } from './proposal-decision.js';

/**
 * Whether to colour what goes to `sink` (T30): only a terminal, and never when `NO_COLOR` is set to
 * anything (https://no-color.org).
 */
export function colorEnabled(io: CliIo, sink: TextSink): boolean {
  return sink.isTTY === true && readEnv(io, 'NO_COLOR') === undefined;
}

/** Text from the AI or the server with its line breaks kept and every line made safe for the terminal (T31). */
export function safeMultiline(text: string): string {
  return terminalLines(text).join('\n');
}

const GREEN = '\u001b[32m';
const RED_STRUCK = '\u001b[31m\u001b[9m';
const RESET = '\u001b[0m';

/**
 * A word diff as terminal text (T32): insertions green, deletions red and struck through; without colour
 * `{+inserted+}` and `[-deleted-]`, as `git diff --word-diff=plain` writes them. The text is made safe first.
 */
export function diffText(diff: readonly WordDiffPart[], color: boolean): string {
  return diff
    .map((part) => {
      const text = safeMultiline(part.text);
      if (part.kind === 'equal') return text;
      if (!color) return part.kind === 'insert' ? `{+${text}+}` : `[-${text}-]`;
      // Styles are closed and opened again around each line break, so a pager showing one line is right too.
      const open = part.kind === 'insert' ? GREEN : RED_STRUCK;
      return text
        .split('\n')
        .map((line) => (line === '' ? '' : `${open}${line}${RESET}`))
        .join('\n');
    })
    .join('');
}

const KIND_LABELS: Record<string, string> = {
  replace_subsection: 'Rewrite',
  replace: 'Replace',
  insert_after: 'Insert after',
  insert_before: 'Insert before',
  delete: 'Delete',
};

/** `Executive Summary > Overview`, safe for the terminal; `?` for a part that is gone. */
export function placeLabel(sectionTitle: string | null, subsectionTitle: string | null): string {
  const parts = [sectionTitle, subsectionTitle].filter((part): part is string => part !== null);
  return parts.length === 0 ? 'an unknown place' : parts.map((part) => terminalText(part).trim()).join(' > ');
}

/**
 * A reviewed proposal as lines for a script's output (T33): a heading, then per change its place, reason,
 * word diff (indented) and, when it no longer applies, why.
 */
export function proposalLines(reviewed: ReviewedProposal, number: number, color: boolean): string[] {
  const { review, proposal } = reviewed;
  const heading = `Proposal ${number} (${proposal.status}, ${terminalText(proposal.toolId)}):`;
  if (!review.ok) return [heading, `  Cannot be read: ${terminalText(review.message)}`];
  const lines = [heading];
  for (const item of review.items) {
    const label = KIND_LABELS[item.kind] ?? item.kind;
    const count = review.items.length > 1 ? `Edit ${item.editIndex + 1} of ${review.items.length}: ` : '';
    lines.push(`  ${count}${label} in ${placeLabel(item.sectionTitle, item.subsectionTitle)}`);
    if (item.renamedTo !== null) lines.push(`    New title: ${terminalText(item.renamedTo)}`);
    if (item.reason !== null) lines.push(`    Why: ${terminalText(item.reason)}`);
    const body = diffText(item.diff, color);
    lines.push(...(body === '' ? ['(no text)'] : body.split('\n')).map((line) => `    ${line}`));
    if (item.problem !== null) lines.push(`    Does not apply: ${terminalText(item.problem.message)}`);
  }
  return lines;
}

/** A reviewed proposal as data for `--json` (T34): the review's items without the document. */
export function proposalData(reviewed: ReviewedProposal) {
  const { review, proposal } = reviewed;
  return {
    toolId: proposal.toolId,
    toolName: proposal.toolName,
    status: proposal.status,
    applicable: review.ok && review.applicable,
    ...(review.ok
      ? { items: review.items }
      : { problem: { reason: review.reason, message: review.message } }),
  };
}
