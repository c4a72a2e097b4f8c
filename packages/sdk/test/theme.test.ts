import { DARK_THEME, isTheme, LIGHT_THEME, resolveTheme, THEMES, toggleTheme } from '@planwright/sdk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

describe('A19 theme', () => {
  it('A19: coffee is dark, caramellatte is light', () => {
    expect([DARK_THEME, LIGHT_THEME]).toEqual(['coffee', 'caramellatte']);
    expect(THEMES).toEqual(['coffee', 'caramellatte']);
  });

  it.each([
    ['coffee', false, 'coffee'],
    ['caramellatte', true, 'caramellatte'],
    [null, true, 'coffee'],
    [null, false, 'caramellatte'],
    [undefined, true, 'coffee'],
    ['', false, 'caramellatte'],
    ['dark', false, 'caramellatte'],
    ['Coffee', true, 'coffee'],
    [' coffee', false, 'caramellatte'],
    [{ theme: 'coffee' }, false, 'caramellatte'],
  ])('A19: stored %j with prefersDark %s → %s', (stored, prefersDark, expected) => {
    expect(resolveTheme(stored, prefersDark)).toBe(expected);
  });

  it('A19: resolveTheme is total: any stored value gives a theme, the stored one only when it is one', () => {
    fc.assert(
      fc.property(fc.anything(), fc.boolean(), (stored, prefersDark) => {
        const theme = resolveTheme(stored, prefersDark);
        expect(THEMES).toContain(theme);
        expect(theme).toBe(isTheme(stored) ? stored : prefersDark ? 'coffee' : 'caramellatte');
      }),
    );
  });

  it('A19: toggleTheme switches to the other theme and back', () => {
    expect(toggleTheme('coffee')).toBe('caramellatte');
    expect(toggleTheme('caramellatte')).toBe('coffee');
    for (const theme of THEMES) expect(toggleTheme(toggleTheme(theme))).toBe(theme);
  });
});
