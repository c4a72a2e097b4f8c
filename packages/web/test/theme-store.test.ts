import { describe, expect, it, vi } from 'vitest';
import indexHtml from '../index.html?raw';
import {
  type DarkPreference,
  resolveInitialTheme,
  THEME_STORAGE_KEY,
  type ThemeStorage,
  ThemeStore,
} from '../src/theme/theme-store';

function memoryStorage(
  initial: Record<string, string> = {},
): ThemeStorage & { data: Record<string, string> } {
  const data = { ...initial };
  return {
    data,
    getItem: (key) => data[key] ?? null,
    setItem: (key, value) => {
      data[key] = value;
    },
  };
}

function fakeDarkPreference(matches: boolean) {
  const listeners = new Set<() => void>();
  const media: DarkPreference & {
    matches: boolean;
    change(matches: boolean): void;
    listenerCount(): number;
  } = {
    matches,
    addEventListener: (_type, listener) => listeners.add(listener),
    removeEventListener: (_type, listener) => listeners.delete(listener),
    change(next) {
      media.matches = next;
      for (const listener of listeners) listener();
    },
    listenerCount: () => listeners.size,
  };
  return media;
}

function makeStore(options: { stored?: string; prefersDark?: boolean } = {}) {
  const storage = memoryStorage(options.stored ? { [THEME_STORAGE_KEY]: options.stored } : {});
  const media = fakeDarkPreference(options.prefersDark ?? false);
  const root = document.createElement('html');
  const store = new ThemeStore({ storage: () => storage, darkPreference: () => media, root: () => root });
  return { store, storage, media, root };
}

describe('ThemeStore (spec 000 §4)', () => {
  it('starts with the stored theme, whatever the system prefers', () => {
    expect(makeStore({ stored: 'caramellatte', prefersDark: true }).store.getSnapshot()).toBe('caramellatte');
    expect(makeStore({ stored: 'coffee', prefersDark: false }).store.getSnapshot()).toBe('coffee');
  });

  it('follows the system dark preference when nothing is stored', () => {
    expect(makeStore({ prefersDark: true }).store.getSnapshot()).toBe('coffee');
    expect(makeStore({ prefersDark: false }).store.getSnapshot()).toBe('caramellatte');
  });

  it('ignores a stored value that is not one of the two themes', () => {
    expect(makeStore({ stored: 'dracula', prefersDark: true }).store.getSnapshot()).toBe('coffee');
  });

  it('keeps data-theme on the root element', () => {
    const { store, root } = makeStore({ prefersDark: true });
    store.getSnapshot();
    expect(root.dataset.theme).toBe('coffee');
    store.toggle();
    expect(root.dataset.theme).toBe('caramellatte');
  });

  it('toggle switches between the two themes, stores the choice and notifies subscribers', () => {
    const { store, storage } = makeStore({ prefersDark: true });
    const listener = vi.fn();
    store.subscribe(listener);
    store.toggle();
    expect(store.getSnapshot()).toBe('caramellatte');
    expect(storage.data[THEME_STORAGE_KEY]).toBe('caramellatte');
    store.toggle();
    expect(store.getSnapshot()).toBe('coffee');
    expect(storage.data[THEME_STORAGE_KEY]).toBe('coffee');
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('follows a live change of the system preference until the user chooses', () => {
    const { store, media } = makeStore({ prefersDark: false });
    const unsubscribe = store.subscribe(() => {});
    media.change(true);
    expect(store.getSnapshot()).toBe('coffee');
    store.set('caramellatte');
    media.change(false);
    media.change(true);
    expect(store.getSnapshot()).toBe('caramellatte');
    unsubscribe();
    expect(media.listenerCount()).toBe(0);
  });

  it('keeps the same snapshot until something changes', () => {
    const { store } = makeStore({ stored: 'coffee' });
    const listener = vi.fn();
    store.subscribe(listener);
    store.set('coffee');
    expect(listener).not.toHaveBeenCalled();
    expect(store.getSnapshot()).toBe(store.getSnapshot());
  });

  it('works when storage throws (blocked or full)', () => {
    const throwing: ThemeStorage = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    const store = new ThemeStore({
      storage: () => throwing,
      darkPreference: () => fakeDarkPreference(true),
      root: () => null,
    });
    expect(store.getSnapshot()).toBe('coffee');
    store.toggle();
    expect(store.getSnapshot()).toBe('caramellatte');
  });
});

describe('the inline theme script in index.html', () => {
  const script = /<script>([\s\S]*?)<\/script>/.exec(indexHtml)?.[1];

  function runInlineScript(stored: string | null, prefersDark: boolean): string | null {
    const html = document.createElement('html');
    const fakeWindow = { matchMedia: () => ({ matches: prefersDark }) };
    const fakeStorage = { getItem: () => stored };
    new Function('window', 'localStorage', 'document', script ?? '')(fakeWindow, fakeStorage, {
      documentElement: html,
    });
    return html.getAttribute('data-theme');
  }

  it('exists, so the first paint already has the theme', () => {
    expect(script).toContain(THEME_STORAGE_KEY);
  });

  it.each([
    ['coffee', true],
    ['coffee', false],
    ['caramellatte', true],
    ['caramellatte', false],
    [null, true],
    [null, false],
    ['unknown', true],
  ] as const)('agrees with the store for stored=%s, prefersDark=%s', (stored, prefersDark) => {
    expect(runInlineScript(stored, prefersDark)).toBe(resolveInitialTheme(stored, prefersDark));
  });
});
