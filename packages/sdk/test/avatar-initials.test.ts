import { avatarInitials, UNKNOWN_INITIALS } from '@planwright/sdk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const codePoints = (value: string) => [...value].length;

describe('A18 avatar initials', () => {
  it.each([
    [{ name: 'Ada Lovelace' }, 'AL'],
    [{ name: 'ada lovelace byron' }, 'AL'],
    [{ name: 'Ada' }, 'A'],
    [{ name: '  Jean-Luc   Picard ' }, 'JP'],
    [{ name: 'émile zola' }, 'ÉZ'],
    [{ name: 'e\u0301mile' }, 'É'],
    [{ name: 'Łukasz Żak' }, 'ŁŻ'],
    [{ name: '李 小龙' }, '李小'],
    [{ name: 'Дмитрий Шостакович' }, 'ДШ'],
    [{ name: '🚀 (Ada) Lovelace' }, 'AL'],
    [{ name: 'ßeta straße' }, 'ßS'],
    [{ name: '𝒜da 𝒷yron' }, '𝒜𝒷'],
    [{ name: 'ada\u00a0lovelace' }, 'AL'],
    [{ name: 'Ada', email: 'zed@example.com' }, 'A'],
  ])('A18: from the name %j → %s', (person, expected) => {
    expect(avatarInitials(person)).toBe(expected);
  });

  it.each([
    [{ email: 'ada.lovelace@example.com' }, 'AL'],
    [{ email: 'grace_hopper@example.com' }, 'GH'],
    [{ email: 'alan-mathison-turing@example.com' }, 'AM'],
    [{ email: 'ada@example.com' }, 'A'],
    [{ email: '.._ada..-lovelace@example.com' }, 'AL'],
    [{ email: '42.ada@example.com' }, '4A'],
    [{ email: '"a@b".c@example.com' }, 'AC'],
    [{ email: 'noatsign' }, 'N'],
    [{ name: '', email: 'ada.lovelace@example.com' }, 'AL'],
    [{ name: ' 🚀 ', email: 'ada.lovelace@example.com' }, 'AL'],
    [{ name: null, email: 'Ada+tag@example.com' }, 'A'],
  ])('A18: from the e-mail %j → %s', (person, expected) => {
    expect(avatarInitials(person)).toBe(expected);
  });

  it.each([
    [{}],
    [{ name: null, email: null }],
    [{ name: '   ', email: '' }],
    [{ email: '@example.com' }],
    [{ email: '._-@example.com' }],
    [{ name: '!!!', email: '🙂@example.com' }],
  ])('A18: nothing usable in %j → ??', (person) => {
    expect(avatarInitials(person)).toBe(UNKNOWN_INITIALS);
    expect(UNKNOWN_INITIALS).toBe('??');
  });

  it('A18: never more than 2 code points, never empty, for any name and e-mail', () => {
    const text = fc.option(fc.string({ unit: 'binary' }), { nil: undefined });
    fc.assert(
      fc.property(text, text, (name, email) => {
        const initials = avatarInitials({ name, email });
        expect(codePoints(initials)).toBeGreaterThan(0);
        expect(codePoints(initials)).toBeLessThanOrEqual(2);
      }),
    );
  });

  it('A18: the initials are letters or digits (or exactly ??), never changed by upper-casing', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (name, email) => {
        const initials = avatarInitials({ name, email });
        if (initials === '??') return;
        expect(initials).toMatch(/^[\p{L}\p{N}]{1,2}$/u);
        // Upper case already, except the characters that have no single upper-case form (ß).
        for (const character of initials) {
          const upper = character.toUpperCase();
          if ([...upper].length === 1) expect(character).toBe(upper);
        }
      }),
    );
  });

  it('A18: two words of ASCII letters always give their two first letters', () => {
    const word = fc.stringMatching(/^[a-zA-Z]{1,12}$/);
    fc.assert(
      fc.property(word, word, (first, second) => {
        expect(avatarInitials({ name: `${first} ${second}` })).toBe(`${first[0]}${second[0]}`.toUpperCase());
      }),
    );
  });
});
