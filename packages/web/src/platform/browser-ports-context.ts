import { createContext, useContext } from 'react';
import { type BrowserPorts, defaultBrowserPorts } from './browser-ports';

/** The browser's timers, storage, windows and console, replaceable by tests (and nothing else). */
export const BrowserPortsContext = createContext<BrowserPorts>(defaultBrowserPorts);

export function useBrowserPorts(): BrowserPorts {
  return useContext(BrowserPortsContext);
}
