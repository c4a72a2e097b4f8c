import type { ProviderRedirectForm } from '@planwright/sdk';
import { type Clock, systemClock } from './clock';

/** The part of `Storage` the web app's own stored values need. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  /** How many keys there are, and the key at an index: what sign-out needs to find every stored draft. */
  readonly length: number;
  key(index: number): string | null;
}

/** Where a popup reports to (the window that opened it). */
export interface MessageTarget {
  postMessage(message: unknown, targetOrigin: string): void;
}

/**
 * What the account pages need from the browser beyond React and the router. Every default reaches for
 * the global when called, so tests replace any of them through `BrowserPortsContext`.
 */
export interface BrowserPorts {
  clock: Clock;
  /** `localStorage`, or `null` where storage is blocked. */
  storage(): KeyValueStorage | null;
  /** Submits a real top-level form (the third-party sign-in leaves the app through it). */
  submitForm(form: ProviderRedirectForm): void;
  /** The window that opened this one as a popup, if any. */
  opener(): MessageTarget | null;
  /** Closes this window (a popup that has reported back). */
  closeWindow(): void;
  /** This page's origin, for `postMessage`. */
  origin(): string;
  /** Failures that are only logged (spec 000 §8 "Shared": the verification check; §4: a failed resend). */
  logError(message: string, error: unknown): void;
}

function localStorageOrNull(): KeyValueStorage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    // Reading localStorage throws in sandboxed frames and with cookies blocked.
    return null;
  }
}

function submitDocumentForm({ method, action, fields }: ProviderRedirectForm): void {
  const form = document.createElement('form');
  form.method = method;
  form.action = action;
  form.hidden = true;
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  document.body.append(form);
  form.submit();
}

function popupOpener(): MessageTarget | null {
  try {
    const opener = window.opener as MessageTarget | null;
    return opener && opener !== (window as unknown) ? opener : null;
  } catch {
    return null;
  }
}

export const defaultBrowserPorts: BrowserPorts = {
  clock: systemClock,
  storage: localStorageOrNull,
  submitForm: submitDocumentForm,
  opener: popupOpener,
  closeWindow: () => window.close(),
  origin: () => window.location.origin,
  logError: (message, error) => console.error(message, error),
};
