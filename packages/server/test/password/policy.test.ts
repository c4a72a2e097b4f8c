import { describe, expect, it } from 'vitest';
import {
  loadCommonPasswords,
  MAX_PASSWORD_LENGTH,
  type PasswordProblemCode,
  validatePassword,
} from '../../src/auth/password/index.js';
import { quickRatio } from '../../src/auth/password/policy.js';
import { readHostileStrings } from './support.js';

const codes = (password: string, user = {}, options = {}) =>
  validatePassword(password, user, options).map((problem) => problem.code);

// Django's own test user (tests/auth_tests/test_validators.py), without the username we do not have.
const testclient = { email: 'testclient@example.com', firstName: 'Test', lastName: 'Client' };

describe('a good password', () => {
  it('has no problems', () => {
    expect(validatePassword('a-safe-password', testclient)).toEqual([]);
    expect(validatePassword('correct horse battery staple', { email: 'ada@example.com' })).toEqual([]);
    expect(validatePassword('a-safe-password')).toEqual([]);
  });
});

describe('password_too_short (MinimumLengthValidator)', () => {
  it('refuses fewer than 8 characters with Django’s message', () => {
    expect(validatePassword('abcdeg7', {})).toContainEqual({
      code: 'password_too_short',
      message: 'This password is too short. It must contain at least 8 characters.',
    });
    expect(codes('a-safe-password'.slice(0, 7))).toEqual(['password_too_short']);
    expect(codes('')).toContain('password_too_short');
    expect(codes('x9!kq2#z')).toEqual([]); // exactly 8
  });

  it('counts Unicode code points, as Python’s len() does', () => {
    expect(codes('🔐🦄🐎🌵🧲🪐🛶')).toEqual(['password_too_short']); // 7 emoji, 14 UTF-16 units
    expect(codes('🔐🦄🐎🌵🧲🪐🛶🎲')).toEqual([]); // 8 emoji
    expect(codes('e\u0301e\u0301e\u0301e\u0301')).toEqual([]); // a combining mark is a character too
    expect(codes('ééééééé')).toEqual(['password_too_short']);
  });

  it('takes Django’s min_length option, with the singular message for 1', () => {
    expect(codes('abc', {}, { minLength: 3 })).toEqual([]);
    expect(validatePassword('', {}, { minLength: 1 })[0]?.message).toBe(
      'This password is too short. It must contain at least 1 character.',
    );
  });
});

describe('password_entirely_numeric (NumericPasswordValidator)', () => {
  it('refuses passwords made only of digits (Django’s example 42424242)', () => {
    expect(validatePassword('42424242', {})).toEqual([
      { code: 'password_entirely_numeric', message: 'This password is entirely numeric.' },
    ]);
    expect(codes('٤٢٤٢٤٢٤٢٤٢')).toEqual(['password_entirely_numeric']); // Arabic-Indic digits are digits
    expect(codes('８３９１７２６５')).toEqual(['password_entirely_numeric']); // full-width digits too
    expect(codes('²³¹⁴⁵⁶₇₈')).toEqual(['password_entirely_numeric']); // Python's isdigit() counts these
    expect(codes('①②③④⑤⑥⑦⑧')).toEqual(['password_entirely_numeric']);
    expect(codes('½½½½½½½½')).toEqual([]); // a fraction is numeric, not a digit: isdigit() is False
    expect(codes('ⅠⅡⅢⅣⅤⅥⅦⅧ')).toEqual([]); // Roman numerals neither
  });

  it('accepts digits with anything else in them', () => {
    expect(codes('4242424x')).toEqual([]);
    expect(codes('4242 4242 9')).toEqual([]);
    expect(codes('-42424242')).toEqual([]);
  });
});

describe('password_too_common (CommonPasswordValidator)', () => {
  it('refuses Django’s example, case-insensitively, ignoring surrounding spaces', () => {
    expect(validatePassword('godzilla', {})).toEqual([
      { code: 'password_too_common', message: 'This password is too common.' },
    ]);
    expect(codes('GODZILLA')).toEqual(['password_too_common']);
    expect(codes('GoDzIlLa')).toEqual(['password_too_common']);
    expect(codes('  godzilla\t')).toEqual(['password_too_common']);
    expect(codes('\u3000godzilla\u00a0')).toEqual(['password_too_common']); // Python's strip() trims these
    expect(codes('god zilla')).toEqual([]);
  });

  it('refuses the famous ones', () => {
    for (const password of [
      'password',
      'Password1',
      'iloveyou',
      'sunshine',
      'qwertyuiop',
      'trustno1',
      'passw0rd',
    ]) {
      expect(codes(password), password).toContain('password_too_common');
    }
  });

  it('ships a list of at least 10,000 lowercased passwords, loaded once', () => {
    const list = loadCommonPasswords();
    expect(list.size).toBeGreaterThanOrEqual(10_000);
    expect(loadCommonPasswords()).toBe(list);
    for (const entry of list) expect(entry).toBe(entry.toLowerCase());
  });

  it('takes another list (Django’s password_list_path)', () => {
    const custom = new Set(['from-my-custom-list']);
    expect(codes('From-My-Custom-List', {}, { commonPasswords: custom })).toEqual(['password_too_common']);
    expect(codes('godzilla', {}, { commonPasswords: custom })).toEqual([]);
  });
});

describe('password_too_similar (UserAttributeSimilarityValidator)', () => {
  it('compares with the parts of the e-mail address (Django’s example example.com)', () => {
    expect(validatePassword('example.com', testclient)).toEqual([
      { code: 'password_too_similar', message: 'The password is too similar to the email address.' },
    ]);
  });

  it('compares with the names, case-insensitively, and names the first close one', () => {
    expect(validatePassword('testclient', testclient)).toEqual([
      { code: 'password_too_similar', message: 'The password is too similar to the last name.' },
    ]);
    expect(codes('TESTCLIENT', testclient)).toEqual(['password_too_similar']);
    // Django: first_name only, max_similarity 0.3 → too similar to the first name; at 0.7 it is not.
    expect(validatePassword('testclient', { firstName: 'Test' }, { maxSimilarity: 0.3 })[0]?.message).toBe(
      'The password is too similar to the first name.',
    );
    expect(codes('testclient', { firstName: 'Test' })).toEqual([]);
  });

  it('compares with the e-mail’s local part and the whole address', () => {
    const user = { email: 'ada.lovelace@analytical-engine.org' };
    expect(codes('ada.lovelace', user)).toEqual(['password_too_similar']);
    expect(codes('Lovelace!', user)).toEqual(['password_too_similar']); // a part: "lovelace"
    expect(codes('ada.lovelace@analytical', user)).toEqual(['password_too_similar']); // the whole address
    expect(codes('analytical-engine', user)).toEqual(['password_too_similar']); // the domain's parts
    // The local part as a whole is our addition: Django's parts alone (ada, lovelace…) stay below 0.7.
    expect(codes('john.smith1', { email: 'john.smith@example.com' })).toEqual(['password_too_similar']);
    expect(codes('john.smith1', { email: 'john.smith@example.com' }, { maxSimilarity: 0.99 })).toEqual([]);
  });

  it('lets through passwords that merely share letters', () => {
    expect(codes('correct horse battery staple', { email: 'ada@example.com', firstName: 'Ada' })).toEqual([]);
    expect(codes('Purple-Elephant-42', testclient)).toEqual([]);
  });

  it('skips missing, null and empty attributes', () => {
    expect(codes('testclient', { email: null, firstName: null, lastName: undefined })).toEqual([]);
    expect(codes('testclient', { email: '', firstName: '' })).toEqual([]);
    expect(codes('testclient')).toEqual([]);
  });

  it('skips value parts under a tenth of the password’s length (Django’s shortcut)', () => {
    // "a" against a 10-character password cannot reach 0.7 (quick_ratio at most 2/11).
    expect(codes('aaaaaaaaaa', { firstName: 'A' }, { commonPasswords: new Set() })).toEqual([]);
  });

  it('uses difflib’s quick_ratio', () => {
    const chars = (text: string) => Array.from(text);
    expect(quickRatio(chars('testclient'), chars('client'))).toBe(0.75);
    expect(quickRatio(chars('testclient'), chars('test'))).toBeCloseTo(8 / 14);
    expect(quickRatio(chars('abc'), chars('cba'))).toBe(1); // an unordered multiset match, unlike ratio()
    expect(quickRatio(chars('aab'), chars('abb'))).toBeCloseTo(4 / 6);
    expect(quickRatio([], [])).toBe(1);
    expect(quickRatio(chars('a'), [])).toBe(0);
  });
});

describe('all problems together, in Django’s validator order', () => {
  it('answers similarity, length, common, numeric', () => {
    expect(codes('1234567')).toEqual([
      'password_too_short',
      'password_too_common',
      'password_entirely_numeric',
    ]);
    expect(codes('12345678', { email: '12345678@example.com' })).toEqual([
      'password_too_similar',
      'password_too_common',
      'password_entirely_numeric',
    ]);
  });
});

describe('password_too_long (DoS guard)', () => {
  it('accepts 4096 characters and refuses 4097 before any other check', () => {
    const longest = 'Ab3$'.repeat(MAX_PASSWORD_LENGTH / 4);
    expect(codes(longest, testclient)).toEqual([]);
    expect(validatePassword(`${longest}x`, testclient)).toEqual([
      {
        code: 'password_too_long',
        message: 'This password is too long. It must contain at most 4096 characters.',
      },
    ]);
    expect(codes('9'.repeat(5_000_000))).toEqual(['password_too_long']);
    expect(codes('🔐'.repeat(MAX_PASSWORD_LENGTH))).toEqual([]); // counted in code points
  });

  it('accepts 64 and 1000 characters', () => {
    expect(codes('x9!kq2#z'.repeat(8))).toEqual([]);
    expect(codes('x9!kq2#z'.repeat(125))).toEqual([]);
  });
});

describe('hostile strings', () => {
  const known: readonly PasswordProblemCode[] = [
    'password_too_short',
    'password_too_common',
    'password_too_similar',
    'password_entirely_numeric',
    'password_too_long',
  ];

  it('never throw, as the password or as every user attribute', () => {
    const hostile = readHostileStrings();
    for (const text of hostile) {
      for (const [password, user] of [
        [text, {}],
        [text, { email: text, firstName: text, lastName: text }],
        ['correct horse battery staple', { email: text, firstName: text, lastName: text }],
        [text, { email: `${text}@example.com` }],
      ] as const) {
        const problems = validatePassword(password, user);
        for (const problem of problems) expect(known).toContain(problem.code);
      }
    }
  });
});
