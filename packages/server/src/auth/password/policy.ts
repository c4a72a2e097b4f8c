import { loadCommonPasswords } from './common-passwords.js';
import { codePointLength, exceedsLength, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './limits.js';

/** The server error codes of spec 000 §5, plus the DoS guard's `password_too_long`. */
export type PasswordProblemCode =
  | 'password_too_short'
  | 'password_too_common'
  | 'password_too_similar'
  | 'password_entirely_numeric'
  | 'password_too_long';

/** One reason a password is refused, in allauth's field-error shape (the caller adds `param`). */
export interface PasswordProblem {
  code: PasswordProblemCode;
  message: string;
}

/** What the similarity rule compares the password with. Missing or empty values are skipped. */
export interface PasswordUser {
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
}

/** Django's validator settings; the defaults are Django's (and spec 000's). */
export interface PasswordPolicyOptions {
  /** Default 8. */
  minLength?: number;
  /** Default {@link MAX_PASSWORD_LENGTH} (4096). */
  maxLength?: number;
  /** Django's UserAttributeSimilarityValidator `max_similarity`, default 0.7. */
  maxSimilarity?: number;
  /** Lowercased common passwords; default the shipped list, loaded on first use. */
  commonPasswords?: ReadonlySet<string>;
}

// Python's str.isspace() set, so that strip() below trims what Django's strip() trims (JavaScript's
// trim() also removes U+FEFF and keeps U+001C–U+001F and U+0085).
const PY_SPACE =
  '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const PY_STRIP = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, 'g');
// Python's `\W` for str patterns: anything but letters, numbers (any N category) and `_`. Combining
// marks are not word characters there, so they split too.
const PY_NON_WORD = /[^\p{L}\p{N}_]+/u;
// str.isdigit(): at least one character, all of Numeric_Type Decimal (\p{Nd}: the digits of every
// script) or Digit, which JavaScript has no property for: the 128 superscript, subscript, circled,
// parenthesised and dingbat digits Python 3 counts, listed here (Unicode 14, as Python 3.11).
const ENTIRELY_NUMERIC =
  /^[\p{Nd}\u00B2\u00B3\u00B9\u1369-\u1371\u19DA\u2070\u2074-\u2079\u2080-\u2089\u2460-\u2468\u2474-\u247C\u2488-\u2490\u24EA\u24F5-\u24FD\u24FF\u2776-\u277E\u2780-\u2788\u278A-\u2792\u{10A40}-\u{10A43}\u{10E60}-\u{10E68}\u{11052}-\u{1105A}\u{1F100}-\u{1F10A}]+$/u;

const ATTRIBUTES = [
  ['firstName', 'first name'],
  ['lastName', 'last name'],
  ['email', 'email address'],
] as const;

/**
 * difflib's `SequenceMatcher(a, b).quick_ratio()`, which Django's similarity rule uses: twice the size
 * of the multiset intersection of the two strings' characters over their total length.
 */
export function quickRatio(a: readonly string[], b: readonly string[]): number {
  const total = a.length + b.length;
  if (total === 0) return 1;
  const available = new Map<string, number>();
  for (const char of b) available.set(char, (available.get(char) ?? 0) + 1);
  let matches = 0;
  for (const char of a) {
    const left = available.get(char) ?? 0;
    if (left > 0) {
      available.set(char, left - 1);
      matches++;
    }
  }
  return (2 * matches) / total;
}

/**
 * The parts of an attribute value the password is compared with: Django's (the value split on
 * non-word characters, plus the whole value) and, for an e-mail address, its whole local part, which
 * Django does not try (`john.smith1` is close to `john.smith`, not to `john` or `smith` alone).
 */
function valueParts(value: string, isEmail: boolean): string[] {
  const parts = value.split(PY_NON_WORD);
  parts.push(value);
  const at = value.lastIndexOf('@');
  if (isEmail && at > 0) parts.push(value.slice(0, at));
  return parts;
}

/** Django's UserAttributeSimilarityValidator; answers the verbose name of the first close attribute. */
function similarAttribute(password: string, user: PasswordUser, maxSimilarity: number): string | undefined {
  const passwordChars = Array.from(password.toLowerCase());
  for (const [attribute, verboseName] of ATTRIBUTES) {
    const value = user[attribute];
    if (typeof value !== 'string' || value === '') continue;
    for (const part of valueParts(value.toLowerCase(), attribute === 'email')) {
      const partChars = Array.from(part);
      // Django's shortcut: a value under a tenth of the password's length cannot reach the ratio.
      const tooShortToMatch =
        passwordChars.length >= 10 * partChars.length &&
        partChars.length < (maxSimilarity / 2) * passwordChars.length;
      if (tooShortToMatch) continue;
      if (quickRatio(passwordChars, partChars) >= maxSimilarity) return verboseName;
    }
  }
  return undefined;
}

/**
 * Checks a new password the way django-allauth does through Django's default validators, in their
 * order: similarity to the user's names and e-mail address (ratio ≥ 0.7), at least 8 characters, not
 * in the common-password list (case-insensitive, surrounding spaces ignored), not entirely digits.
 * Answers every problem found, or `[]` for an acceptable password.
 *
 * Lengths are Unicode code points, as Python counts them. Nothing is normalised: NFKC would fold
 * look-alike characters (full-width letters, ligatures) into others and change lengths, and the hash
 * stores exactly what was typed, so the policy judges exactly that too.
 *
 * A password over 4096 characters gets only `password_too_long`, before any other work.
 */
export function validatePassword(
  password: string,
  user: PasswordUser = {},
  options: PasswordPolicyOptions = {},
): PasswordProblem[] {
  const minLength = options.minLength ?? MIN_PASSWORD_LENGTH;
  const maxLength = options.maxLength ?? MAX_PASSWORD_LENGTH;
  if (exceedsLength(password, maxLength)) {
    return [
      {
        code: 'password_too_long',
        message: `This password is too long. It must contain at most ${maxLength} characters.`,
      },
    ];
  }

  const problems: PasswordProblem[] = [];
  const similarTo = similarAttribute(password, user, options.maxSimilarity ?? 0.7);
  if (similarTo) {
    problems.push({
      code: 'password_too_similar',
      message: `The password is too similar to the ${similarTo}.`,
    });
  }
  if (codePointLength(password) < minLength) {
    problems.push({
      code: 'password_too_short',
      message: `This password is too short. It must contain at least ${minLength} character${minLength === 1 ? '' : 's'}.`,
    });
  }
  const common = options.commonPasswords ?? loadCommonPasswords();
  if (common.has(password.toLowerCase().replace(PY_STRIP, ''))) {
    problems.push({ code: 'password_too_common', message: 'This password is too common.' });
  }
  if (ENTIRELY_NUMERIC.test(password)) {
    problems.push({ code: 'password_entirely_numeric', message: 'This password is entirely numeric.' });
  }
  return problems;
}
