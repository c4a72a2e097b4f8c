import type { PersonalToken } from '@planwright/sdk';
import { terminalText } from '../display/terminal-text.js';
import { formatTable } from '../display/text-table.js';
import { formatTimestamp } from '../display/timestamp.js';

/** Widest a token's name may be in the table before it is cut with `…`. */
const NAME_WIDTH = 30;

/** A token's time (unix seconds) as the other lists show times: `2026-11-22 10:05 UTC`; none is `-`. */
export function tokenTime(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '-';
  return formatTimestamp(new Date(seconds * 1000).toISOString());
}

/** What a token may do, in words: `read-only` or `read-write`. */
export function scopeWords(scope: PersonalToken['scope']): string {
  return scope === 'read' ? 'read-only' : 'read-write';
}

/** When a token stops working, for the EXPIRES column: `never`, the time, and `(expired)` once it is past. */
function expires(token: PersonalToken, now: Date): string {
  if (token.expires_at === null) return 'never';
  const time = tokenTime(token.expires_at);
  return token.expires_at * 1000 <= now.getTime() ? `${time} (expired)` : time;
}

/**
 * `planwright tokens list` for people: a table of the account's personal access tokens, newest first (ID, NAME,
 * SCOPE, CREATED, EXPIRES, LAST USED), or how to make the first one.
 */
export function tokenListLines(tokens: readonly PersonalToken[], now: Date): string[] {
  if (tokens.length === 0) {
    return [
      'No personal access tokens yet.',
      'Make one for a script with `planwright tokens create --name <name>`: it signs the script in as you until it expires or you revoke it.',
    ];
  }
  return formatTable(
    [
      { header: 'ID', value: (token: PersonalToken) => String(token.id) },
      { header: 'NAME', value: (token) => token.name.trim() || '-', maxWidth: NAME_WIDTH },
      { header: 'SCOPE', value: (token) => scopeWords(token.scope) },
      { header: 'CREATED', value: (token) => tokenTime(token.created_at) },
      { header: 'EXPIRES', value: (token) => expires(token, now) },
      {
        header: 'LAST USED',
        value: (token) => (token.last_used_at === null ? 'never' : tokenTime(token.last_used_at)),
      },
    ],
    tokens,
  );
}

/**
 * `planwright tokens create`'s note on standard error, for people: what the token can do, until when, and that it
 * is shown only now.
 */
export function createdTokenNote(token: PersonalToken): string {
  const name = terminalText(token.name).trim();
  const can =
    token.scope === 'read'
      ? 'it can read all your account can, and change nothing'
      : 'it can read and change all your account can';
  const until = token.expires_at === null ? 'until you revoke it' : `until ${tokenTime(token.expires_at)}`;
  const kind = token.scope === 'read' ? 'Read-only' : 'Read-write';
  return `${kind} token “${name}”: ${can}, ${until}. It is shown only now: keep it.`;
}

/** `planwright tokens revoke` for people. */
export function revokedTokenLine(id: number): string {
  return `Revoked the token ${id}: it stops working at once.`;
}
