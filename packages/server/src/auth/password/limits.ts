/** Django's MinimumLengthValidator default and spec 000 §9: at least 8 characters. */
export const MIN_PASSWORD_LENGTH = 8;

/**
 * The longest password we hash, in characters (Unicode code points). Far above any real password (the
 * issue asks for at least 64) and low enough that nobody can make the server hash megabytes: scrypt
 * first runs PBKDF2 over the whole input, so its cost grows with the length.
 */
export const MAX_PASSWORD_LENGTH = 4096;

/** Length in Unicode code points, as Python's `len()` counts: an emoji is 1, not 2 UTF-16 units. */
export function codePointLength(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** True when `password` has more than `max` code points, without walking a huge string to find out. */
export function exceedsLength(password: string, max: number = MAX_PASSWORD_LENGTH): boolean {
  if (password.length <= max) return false; // every code point takes at least one UTF-16 unit
  if (password.length > 2 * max) return true; // and at most two
  return codePointLength(password) > max;
}
