import { terminalText } from './terminal-text.js';

/**
 * An ISO 8601 time as `2026-11-22 10:05 UTC`: one fixed zone, so output does not depend on the machine
 * running it (scripts wanting exact times use `--json`). Anything that is not a date is shown as sent,
 * made safe; nothing is `-`.
 */
export function formatTimestamp(value: string | null | undefined): string {
  if (value === null || value === undefined || value.trim() === '') return '-';
  const time = Date.parse(value);
  if (Number.isNaN(time)) return terminalText(value);
  const iso = new Date(time).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
