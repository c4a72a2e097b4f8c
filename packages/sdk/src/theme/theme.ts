/** The two colour themes (spec 000 §4): `coffee` is dark, `caramellatte` is light. */
export const THEMES = ['coffee', 'caramellatte'] as const;

/** One of {@link THEMES}. */
export type Theme = (typeof THEMES)[number];

/** The dark theme. */
export const DARK_THEME: Theme = 'coffee';

/** The light theme. */
export const LIGHT_THEME: Theme = 'caramellatte';

/** Whether a value (from storage, a URL, anywhere) names a theme. */
export function isTheme(value: unknown): value is Theme {
  return value === DARK_THEME || value === LIGHT_THEME;
}

/**
 * The theme to show (spec 000 §4): the stored one when it names a theme; otherwise (nothing stored, or
 * anything else stored) the system's preference, dark → `coffee`, light → `caramellatte`.
 */
export function resolveTheme(stored: unknown, prefersDark: boolean): Theme {
  if (isTheme(stored)) return stored;
  return prefersDark ? DARK_THEME : LIGHT_THEME;
}

/** The other theme: what the toggle switches to (and stores). */
export function toggleTheme(theme: Theme): Theme {
  return theme === DARK_THEME ? LIGHT_THEME : DARK_THEME;
}
