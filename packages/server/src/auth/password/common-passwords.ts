import { createRequire } from 'node:module';

type LanguageCommon = typeof import('@zxcvbn-ts/language-common');

let commonPasswords: ReadonlySet<string> | undefined;

/**
 * The common-password list, lowercased, loaded on first use and kept.
 *
 * Source: the `passwords-common` dictionary of `@zxcvbn-ts/language-common` (MIT; 49,233 passwords
 * ranked by frequency in Mark Burnett's 10-million-password corpus, which zxcvbn filtered of entries
 * its own rules already catch, such as `aaaaaaaa`). Django ships a different, 20,000-entry list; both
 * are lowercase and compared case-insensitively.
 *
 * It is read with `require` so that the first sign-up pays for it (~40 ms, ~9 MB of heap) rather
 * than every server start, and so that `validatePassword` can stay synchronous.
 */
export function loadCommonPasswords(): ReadonlySet<string> {
  if (commonPasswords) return commonPasswords;
  const require = createRequire(import.meta.url);
  const { dictionary } = require('@zxcvbn-ts/language-common') as LanguageCommon;
  const list: unknown = dictionary?.['passwords-common'];
  if (!Array.isArray(list) || list.length < 10_000 || !list.every((entry) => typeof entry === 'string')) {
    throw new Error('@zxcvbn-ts/language-common no longer carries its passwords-common list.');
  }
  commonPasswords = new Set(list.map((entry: string) => entry.toLowerCase()));
  return commonPasswords;
}
