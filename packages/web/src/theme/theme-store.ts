import { resolveTheme, Subscribable, toggleTheme } from '@planwright/sdk';

/**
 * The colour theme (spec 000 §4): `coffee` is dark, `caramellatte` is light. The stored choice wins; without
 * one the theme follows the system's dark preference, live. Framework-free: React reads it through
 * `useTheme`, and `index.html` carries an inline copy of `resolveInitialTheme` so the first paint is right.
 */

export const THEMES = ['coffee', 'caramellatte'] as const;
export type Theme = (typeof THEMES)[number];

export const DARK_THEME: Theme = 'coffee';
export const LIGHT_THEME: Theme = 'caramellatte';

/** localStorage key; `index.html` reads the same key before first paint. */
export const THEME_STORAGE_KEY = 'theme';

const DARK_QUERY = '(prefers-color-scheme: dark)';

export function isTheme(value: unknown): value is Theme {
  return value === DARK_THEME || value === LIGHT_THEME;
}

/** The part of `Storage` the store needs. */
export interface ThemeStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** The part of `MediaQueryList` the store needs. */
export interface DarkPreference {
  readonly matches: boolean;
  addEventListener(type: 'change', listener: () => void): void;
  removeEventListener(type: 'change', listener: () => void): void;
}

export interface ThemeStoreOptions {
  /** Defaults to `window.localStorage`, looked up when first used. */
  storage?: () => ThemeStorage | null;
  /** Defaults to `window.matchMedia('(prefers-color-scheme: dark)')`. */
  darkPreference?: () => DarkPreference | null;
  /** Where `data-theme` is kept; defaults to `<html>`. Pass `null` to keep the DOM untouched. */
  root?: () => HTMLElement | null;
}

/**
 * Stored theme, else the system preference; a storage that throws (privacy modes) counts as empty. The rule
 * itself is the SDK's `resolveTheme`, shared with the CLI.
 */
export function resolveInitialTheme(stored: string | null, prefersDark: boolean): Theme {
  return resolveTheme(stored, prefersDark);
}

function readStored(storage: ThemeStorage | null): string | null {
  try {
    return storage?.getItem(THEME_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

export class ThemeStore extends Subscribable {
  private readonly storage: () => ThemeStorage | null;
  private readonly darkPreference: () => DarkPreference | null;
  private readonly root: () => HTMLElement | null;
  private theme: Theme | undefined;
  private explicit = false;
  private media: DarkPreference | null = null;

  constructor(options: ThemeStoreOptions = {}) {
    super();
    this.storage = options.storage ?? defaultStorage;
    this.darkPreference = options.darkPreference ?? defaultDarkPreference;
    this.root = options.root ?? defaultRoot;
  }

  /** The current theme; the same value until it changes. */
  getSnapshot = (): Theme => {
    if (this.theme === undefined) {
      const stored = readStored(this.storage());
      this.explicit = isTheme(stored);
      this.theme = resolveInitialTheme(stored, this.darkPreference()?.matches ?? false);
      this.apply();
    }
    return this.theme;
  };

  /** The system's preference is watched only while someone watches the theme. */
  protected override onSubscribe(): void {
    if (this.listenerCount === 1) this.watchSystem();
  }

  protected override onUnsubscribe(): void {
    if (!this.hasListeners()) this.unwatchSystem();
  }

  /** Sets and stores a theme; from now on the system preference no longer applies. */
  set(theme: Theme): void {
    this.explicit = true;
    try {
      this.storage()?.setItem(THEME_STORAGE_KEY, theme);
    } catch {
      // Storage full or blocked: the choice still holds for this page.
    }
    this.update(theme);
  }

  toggle(): void {
    this.set(toggleTheme(this.getSnapshot()));
  }

  private update(theme: Theme): void {
    if (theme === this.theme) return;
    this.theme = theme;
    this.apply();
    this.notify();
  }

  private apply(): void {
    const root = this.root();
    if (root && this.theme) root.dataset.theme = this.theme;
  }

  private readonly onSystemChange = (): void => {
    if (this.explicit || !this.media) return;
    this.update(resolveTheme(null, this.media.matches));
  };

  private watchSystem(): void {
    this.getSnapshot();
    this.media = this.darkPreference();
    this.media?.addEventListener('change', this.onSystemChange);
  }

  private unwatchSystem(): void {
    this.media?.removeEventListener('change', this.onSystemChange);
    this.media = null;
  }
}

function defaultStorage(): ThemeStorage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

function defaultDarkPreference(): DarkPreference | null {
  return typeof window === 'undefined' || typeof window.matchMedia !== 'function'
    ? null
    : window.matchMedia(DARK_QUERY);
}

function defaultRoot(): HTMLElement | null {
  return typeof document === 'undefined' ? null : document.documentElement;
}

/** The app's one theme store. */
export const themeStore = new ThemeStore();
