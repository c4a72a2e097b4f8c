import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createPasswordHasher,
  DEFAULT_SCRYPT_PARAMS,
  dummyVerify,
  hashPassword,
  isPasswordHash,
  MAX_PASSWORD_LENGTH,
  verifyPassword,
} from '../../src/auth/password/index.js';
import { readHostileStrings } from './support.js';

// scrypt is slow on purpose; everything that does not test the cost itself runs on tiny parameters.
const fast = createPasswordHasher({ params: { ln: 4, r: 2, p: 1 } });
const MISMATCH = { ok: false, needsRehash: false };
const MATCH = { ok: true, needsRehash: false };

describe('hash and verify', () => {
  it('round-trips and refuses a wrong password', async () => {
    const stored = await fast.hash('correct horse battery staple');
    expect(await fast.verify('correct horse battery staple', stored)).toEqual(MATCH);
    expect(await fast.verify('correct horse battery stapler', stored)).toEqual(MISMATCH);
    expect(await fast.verify('Correct horse battery staple', stored)).toEqual(MISMATCH);
    expect(await fast.verify('', stored)).toEqual(MISMATCH);
  });

  it('stores scheme, parameters, a 16-byte salt and a 32-byte key', async () => {
    const stored = await fast.hash('correct horse battery staple');
    const [scheme, ln, r, p, salt, key, ...rest] = stored.split('$');
    expect([scheme, ln, r, p, rest]).toEqual(['scrypt', 'ln=4', 'r=2', 'p=1', []]);
    expect(Buffer.from(salt ?? '', 'base64')).toHaveLength(16);
    expect(Buffer.from(key ?? '', 'base64')).toHaveLength(32);
    expect(stored).not.toContain('correct');
    expect(isPasswordHash(stored)).toBe(true);
  });

  it('salts every hash anew', async () => {
    const hashes = await Promise.all(Array.from({ length: 8 }, () => fast.hash('same password')));
    expect(new Set(hashes).size).toBe(8);
    expect(new Set(hashes.map((stored) => stored.split('$')[4])).size).toBe(8);
    for (const stored of hashes) expect(await fast.verify('same password', stored)).toEqual(MATCH);
  });

  it('uses the measured default parameters (N = 2^14, r = 12, p = 1) through the module functions', async () => {
    expect(DEFAULT_SCRYPT_PARAMS).toEqual({ ln: 14, r: 12, p: 1 });
    const stored = await hashPassword('correct horse battery staple');
    expect(stored).toMatch(/^scrypt\$ln=14\$r=12\$p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(await verifyPassword('correct horse battery staple', stored)).toEqual(MATCH);
    expect(await dummyVerify('correct horse battery staple')).toEqual(MISMATCH);
  });

  it('refuses parameters outside the safe bounds when a hasher is made', () => {
    expect(() => createPasswordHasher({ params: { ln: 0, r: 8, p: 1 } })).toThrow(RangeError);
    expect(() => createPasswordHasher({ params: { ln: 30, r: 8, p: 1 } })).toThrow(RangeError);
    expect(() => createPasswordHasher({ params: { ln: 14, r: 8.5, p: 1 } })).toThrow(RangeError);
  });
});

describe('needsRehash', () => {
  const weak = fast;
  const stronger = createPasswordHasher({ params: { ln: 5, r: 2, p: 1 } });
  const wider = createPasswordHasher({ params: { ln: 4, r: 3, p: 1 } });
  const parallel = createPasswordHasher({ params: { ln: 4, r: 2, p: 2 } });

  it('is set when the stored parameters are below the current ones, and only on a match', async () => {
    const old = await weak.hash('correct horse battery staple');
    for (const current of [stronger, wider, parallel]) {
      expect(await current.verify('correct horse battery staple', old)).toEqual({
        ok: true,
        needsRehash: true,
      });
      expect(await current.verify('wrong horse battery staple', old)).toEqual(MISMATCH);
    }
  });

  it('is not set for a hash made with today’s or higher parameters', async () => {
    const current = await stronger.hash('correct horse battery staple');
    expect(await stronger.verify('correct horse battery staple', current)).toEqual(MATCH);
    expect(await weak.verify('correct horse battery staple', current)).toEqual(MATCH);
  });

  it('is set for a shorter salt or key than today’s (older formats)', async () => {
    const { scrypt } = await import('node:crypto');
    const salt = Buffer.alloc(8, 7);
    const key = await new Promise<Buffer>((resolve, reject) =>
      scrypt('correct horse battery staple', salt, 16, { N: 16, r: 2, p: 1 }, (e, k) =>
        e ? reject(e) : resolve(k),
      ),
    );
    const stored = `scrypt$ln=4$r=2$p=1$${salt.toString('base64').replace(/=+$/, '')}$${key.toString('base64').replace(/=+$/, '')}`;
    expect(isPasswordHash(stored)).toBe(true);
    expect(await fast.verify('correct horse battery staple', stored)).toEqual({
      ok: true,
      needsRehash: true,
    });
  });
});

describe('tampered and garbled stored strings', () => {
  it('answer a plain mismatch, never a crash', async () => {
    const good = await fast.hash('correct horse battery staple');
    const [scheme, ln, r, p, salt = '', key = ''] = good.split('$');
    const flip = (text: string, at: number) =>
      text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
    // Well-formed, but altered: a different key comes out, so they simply do not match.
    const tampered = [
      good.replace('ln=4', 'ln=5'),
      good.replace('r=2', 'r=3'),
      good.replace('p=1', 'p=2'),
      [scheme, ln, r, p, flip(salt, 3), key].join('$'),
      [scheme, ln, r, p, salt, flip(key, 5)].join('$'),
      [scheme, ln, r, p, key, salt].join('$'),
    ];
    // Not a hash this module made: refused before any scrypt call with their parameters.
    const garbled: unknown[] = [
      '',
      '!',
      '!unusable-password',
      'garbage',
      'scrypt',
      'scrypt$',
      'scrypt$$$$$',
      `${good}=`,
      `${good}$extra`,
      ` ${good}`,
      good.toUpperCase(),
      good.replace('scrypt$', 'argon2id$'),
      good.replace('ln=4', 'ln=0'),
      good.replace('ln=4', 'ln=40'), // would need terabytes
      good.replace('ln=4', 'ln=04'),
      good.replace('r=2', 'r=0'),
      good.replace('ln=4', 'ln=20').replace('r=2', 'r=64'), // within the pattern: 8 GiB, over the bound
      good.replace('ln=4', 'ln=16').replace('r=2', 'r=999'), // over the work bound
      good.replace('p=1', 'p=-1'),
      good.replace('ln=4', 'ln=4.5'),
      good.replace('ln=', 'N='),
      [scheme, ln, r, p, salt.slice(0, 8), key].join('$'), // 6-byte salt
      [scheme, ln, r, p, salt, key.slice(0, 20)].join('$'), // key too short
      [scheme, ln, r, p, `${salt}==`, key].join('$'),
      [scheme, ln, r, p, `-${salt.slice(1)}`, key].join('$'), // base64url is not ours
      [scheme, ln, r, p, salt, `${key.slice(0, -1)}${key.endsWith('B') ? 'C' : 'B'}`].join('$'), // non-canonical
      '$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW', // bcrypt
      'pbkdf2_sha256$600000$c2FsdHNhbHQ$aGFzaGhhc2g=', // Django's default hasher
      `scrypt$ln=14$r=8$p=1$${'🔐'.repeat(11)}$${'🔐'.repeat(22)}`,
      `scrypt$ln=4$r=2$p=1$${'A'.repeat(5000)}$${key}`,
      'x'.repeat(100_000),
      null,
      undefined,
      42,
      { toString: () => good },
    ];
    for (const stored of [...tampered, ...garbled]) {
      await expect(
        fast.verify('correct horse battery staple', stored as string),
        JSON.stringify(String(stored)).slice(0, 80),
      ).resolves.toEqual(MISMATCH);
    }
    for (const stored of tampered) expect(isPasswordHash(stored), stored).toBe(true);
    for (const stored of garbled) {
      if (typeof stored === 'string') expect(isPasswordHash(stored), stored.slice(0, 80)).toBe(false);
    }
    // The intact string still verifies: the mismatches above are the tampering, not the test.
    expect(await fast.verify('correct horse battery staple', good)).toEqual(MATCH);
  });

  it('refuse a password that is not a string with a TypeError', async () => {
    await expect(fast.hash(undefined as unknown as string)).rejects.toThrow(TypeError);
    await expect(fast.verify(123 as unknown as string, await fast.hash('x'))).rejects.toThrow(TypeError);
  });
});

describe('Unicode and long passwords', () => {
  it('round-trips emoji, combining marks, right-to-left text and control characters exactly', async () => {
    const passwords = [
      'pässwörd-ünïcödé',
      '🔐🦄 correct horse 🐎',
      '👨‍👩‍👧‍👦 family ZWJ sequence',
      'e\u0301e\u0301e\u0301 combining acute',
      'كلمة المرور السرية',
      'סיסמה סודית מאוד',
      '\u202eRTL override\u202c',
      '漢字のパスワード',
      'tab\there\nnewline\0nul',
      '  surrounding spaces  ',
    ];
    for (const password of passwords) {
      const stored = await fast.hash(password);
      expect(await fast.verify(password, stored), password).toEqual(MATCH);
      expect(await fast.verify(`${password}x`, stored), password).toEqual(MISMATCH);
    }
  });

  it('does not normalise: the composed and decomposed é are different passwords, as in Django', async () => {
    const composed = 'caf\u00e9 au lait';
    const decomposed = 'cafe\u0301 au lait';
    expect(await fast.verify(decomposed, await fast.hash(composed))).toEqual(MISMATCH);
    expect(await fast.verify(composed, await fast.hash(decomposed))).toEqual(MISMATCH);
    // Nor are spaces trimmed.
    expect(await fast.verify('secret words', await fast.hash(' secret words '))).toEqual(MISMATCH);
  });

  it('keeps lone surrogates apart from U+FFFD and from each other (no lossy UTF-8 encoding)', async () => {
    const stored = await fast.hash('pass\ud800word');
    expect(await fast.verify('pass\ud800word', stored)).toEqual(MATCH);
    expect(await fast.verify('pass\ufffdword', stored)).toEqual(MISMATCH);
    expect(await fast.verify('pass\udbffword', stored)).toEqual(MISMATCH);
    expect(await fast.verify('pass\ufffdword', await fast.hash('pass\udc00word'))).toEqual(MISMATCH);
    const pair = '\ud83d\udd10'; // 🔐 written as a pair stays plain UTF-8
    expect(await fast.verify('🔐', await fast.hash(pair))).toEqual(MATCH);
  });

  it('keeps passwords apart that differ only by trailing NULs (HMAC pads its key with zeros)', async () => {
    for (const [typed, other] of [
      ['\u0000', ''],
      ['', '\u0000'],
      ['abc', 'abc\u0000'],
      ['abc\u0000', 'abc'],
      ['abc\u0000', 'abc\u0000\u0000'],
      ['\u0000'.repeat(64), '\u0000'.repeat(63)],
    ] as const) {
      const stored = await fast.hash(typed);
      expect(await fast.verify(typed, stored), JSON.stringify(typed)).toEqual(MATCH);
      expect(
        await fast.verify(other, stored),
        `${JSON.stringify(other)} against ${JSON.stringify(typed)}`,
      ).toEqual(MISMATCH);
    }
    // A NUL inside the password was never ambiguous, and stays part of it.
    expect(await fast.verify('ab', await fast.hash('a\u0000b'))).toEqual(MISMATCH);
  });

  it.each([64, 1000, MAX_PASSWORD_LENGTH])(
    'uses every one of %i characters (no truncation)',
    async (length) => {
      const password = Array.from({ length }, (_, i) => String.fromCharCode(33 + ((i * 7) % 90))).join('');
      const stored = await fast.hash(password);
      expect(await fast.verify(password, stored)).toEqual(MATCH);
      const lastChanged = password.slice(0, -1) + (password.endsWith('a') ? 'b' : 'a');
      expect(await fast.verify(lastChanged, stored)).toEqual(MISMATCH);
      expect(await fast.verify(password.slice(0, -1), stored)).toEqual(MISMATCH);
      if (length > 72) expect(await fast.verify(password.slice(0, 72), stored)).toEqual(MISMATCH); // bcrypt's cut
    },
  );

  it('counts the limit in code points: 4096 emoji hash, one more is refused', async () => {
    const emoji = '🔐'.repeat(MAX_PASSWORD_LENGTH);
    expect(await fast.verify(emoji, await fast.hash(emoji))).toEqual(MATCH);
    await expect(fast.hash(`${emoji}a`)).rejects.toThrow(RangeError);
    await expect(fast.hash('a'.repeat(1_000_000))).rejects.toThrow(/longer than 4096 characters/);
    // A too-long password at login is a mismatch that costs what any other does, never an error.
    expect(await fast.verify('a'.repeat(MAX_PASSWORD_LENGTH + 1), await fast.hash('a'))).toEqual(MISMATCH);
  });

  it('never puts the password into an error message', async () => {
    const secret = `${'s3cret-'.repeat(700)}tail`;
    await expect(fast.hash(secret)).rejects.toSatisfy(
      (error: unknown) => error instanceof Error && !error.message.includes('s3cret'),
    );
  });
});

describe('dummyVerify', () => {
  it('always mismatches, with or without a password', async () => {
    expect(await fast.dummyVerify()).toEqual(MISMATCH);
    expect(await fast.dummyVerify('correct horse battery staple')).toEqual(MISMATCH);
    expect(await fast.dummyVerify('a'.repeat(MAX_PASSWORD_LENGTH + 1))).toEqual(MISMATCH);
  });
});

describe('properties', () => {
  it('verify(p, hash(p)) is ok for any string of code points', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 200 }), async (password) => {
        expect(await fast.verify(password, await fast.hash(password))).toEqual(MATCH);
      }),
      { numRuns: 200 },
    );
  });

  it('verify(p, hash(p)) is ok, and any other string mismatches, for raw UTF-16 (lone surrogates too)', async () => {
    const unit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit, maxLength: 40 }),
        fc.string({ unit, maxLength: 40 }),
        async (a, b) => {
          const stored = await fast.hash(a);
          expect(await fast.verify(a, stored)).toEqual(MATCH);
          expect((await fast.verify(b, stored)).ok).toBe(a === b);
        },
      ),
      // The first is the counterexample seed 277839291 found: a trailing NUL lost in scrypt's HMAC.
      {
        numRuns: 200,
        examples: [
          ['\u0000', ''],
          ['a\ud800', 'a\ufffd'],
          ['x', 'x\u0000\u0000'],
        ],
      },
    );
  });

  it('hostile strings hash and verify without throwing', async () => {
    for (const hostile of readHostileStrings()) {
      const stored = await fast.hash(hostile);
      expect(await fast.verify(hostile, stored), JSON.stringify(hostile)).toEqual(MATCH);
      expect(await fast.verify('correct horse battery staple', hostile)).toEqual(MISMATCH);
    }
  });
});
