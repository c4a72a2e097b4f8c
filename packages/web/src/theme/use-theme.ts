import { useSyncExternalStore } from 'react';
import { DARK_THEME, type Theme, type ThemeStore, themeStore } from './theme-store';

export interface UseThemeResult {
  theme: Theme;
  isDark: boolean;
  toggle(): void;
}

/** The current theme and a toggle, read from the (framework-free) theme store. */
export function useTheme(store: ThemeStore = themeStore): UseThemeResult {
  const theme = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  return { theme, isDark: theme === DARK_THEME, toggle: () => store.toggle() };
}
