import { terminalLines, terminalText } from '../display/terminal-text.js';
import { formatSize } from '../transfer/transfer-text.js';

/** What `planwright diff -o FILE --json` prints: which comparison went where. */
export interface DiffFileReport {
  uuid: string;
  /** `--from` and `--to` as sent (trimmed; `now` for the plan as it is now). */
  from: string;
  to: string;
  format: 'md' | 'json' | 'docx';
  path: string;
  bytes: number;
}

/**
 * `planwright diff` to standard output: the server's Markdown line by line, every line made safe for the
 * terminal (the plan's text may be anyone's on a shared plan), its final line break left to the output.
 */
export function diffMarkdownLines(markdown: string): string[] {
  return terminalLines(markdown.endsWith('\n') ? markdown.slice(0, -1) : markdown);
}

/** `planwright diff -o FILE`, one line: `Wrote the changes from “v1” to now to changes.md (312 B).` */
export function diffWrittenLine(report: DiffFileReport): string {
  return `Wrote the changes from ${sideLabel(report.from)} to ${sideLabel(report.to)} to ${terminalText(report.path)} (${formatSize(report.bytes)}).`;
}

/** A side of the comparison in a sentence: `now`, else the version as typed, quoted. */
function sideLabel(side: string): string {
  return side.toLowerCase() === 'now' ? 'now' : `“${terminalText(side)}”`;
}
