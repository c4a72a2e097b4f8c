/** Shown when there is neither a name nor an e-mail to take initials from (spec 000 §2). */
export const UNKNOWN_INITIALS = '??';

/** Spec 000 §9: avatar initials are at most 2 characters. */
const MAX_INITIALS = 2;

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const WHITESPACE = /\s+/u;
const EMAIL_LOCAL_SEPARATORS = /[._-]/;

/**
 * Upper case, unless that would turn one character into several (`ß` → `SS`, `ǰ` → `J̌`), which would
 * break the two-character limit.
 */
function upper(character: string): string {
  const upperCased = character.toUpperCase();
  return [...upperCased].length === 1 ? upperCased : character;
}

/**
 * The first letter (or digit) of a piece, skipping punctuation and emoji ("(Ada)" → "A"). NFC first, so a
 * decomposed "é" keeps its accent instead of giving a bare "e".
 */
function initialOf(piece: string): string | undefined {
  for (const character of piece.normalize('NFC')) {
    if (LETTER_OR_DIGIT.test(character)) return upper(character);
  }
  return undefined;
}

function initialsOf(pieces: readonly string[]): string {
  const initials: string[] = [];
  for (const piece of pieces) {
    const initial = initialOf(piece);
    if (initial !== undefined) initials.push(initial);
    if (initials.length === MAX_INITIALS) break;
  }
  return initials.join('');
}

/** The part before the last `@` (a quoted local part may itself hold one); the whole value without `@`. */
function localPart(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0 ? email : email.slice(0, at);
}

/**
 * The avatar's initials (spec 000 §2): the first letters of up to two words of the name; without a usable
 * name, of up to two pieces of the e-mail's local part split on `.`, `_` and `-`; else `??`. Upper case, at
 * most two characters (code points). Letters of any script count, and digits too (`42.ada@…` → `4A`); words
 * without either (emoji, punctuation) are skipped.
 *
 * @example
 * avatarInitials({ name: 'Ada Lovelace' }); // 'AL'
 * avatarInitials({ email: 'grace_hopper@example.com' }); // 'GH'
 */
export function avatarInitials(person: { name?: string | null; email?: string | null }): string {
  const fromName = initialsOf((person.name ?? '').split(WHITESPACE));
  if (fromName !== '') return fromName;
  const fromEmail = initialsOf(localPart((person.email ?? '').trim()).split(EMAIL_LOCAL_SEPARATORS));
  return fromEmail === '' ? UNKNOWN_INITIALS : fromEmail;
}
