import { usernameOf } from '../auth/username.js';

/** Someone on a plan whom a comment may mention. */
export interface Mentionable {
  userId: string;
  email: string;
}

/**
 * `@username` tokens of a message: `@` after a space, a line start or an opening bracket, then the local part of
 * an address (letters, digits, `.`, `_`, `+`, `-`), without a trailing dot ("@ada." ends a sentence).
 */
const MENTION = /(^|[\s([{"'“‘])@([\p{L}\p{N}._+-]+)/gu;

/** The usernames a message mentions, in order, once each (case as written). */
export function mentionedUsernames(body: string): string[] {
  const seen = new Map<string, string>();
  for (const match of body.matchAll(MENTION)) {
    const name = (match[2] ?? '').replace(/\.+$/, '');
    if (name !== '' && !seen.has(name.toLowerCase())) seen.set(name.toLowerCase(), name);
  }
  return [...seen.values()];
}

/**
 * Who a message mentions among `people`: their user ids, or the usernames that name nobody on the plan (a
 * username two people share mentions both).
 */
export function resolveMentions(
  body: string,
  people: readonly Mentionable[],
): { userIds: string[]; unknown: string[] } {
  const userIds = new Set<string>();
  const unknown: string[] = [];
  for (const name of mentionedUsernames(body)) {
    const matches = people.filter((person) => usernameOf(person.email).toLowerCase() === name.toLowerCase());
    if (matches.length === 0) unknown.push(name);
    for (const person of matches) userIds.add(person.userId);
  }
  return { userIds: [...userIds], unknown };
}
