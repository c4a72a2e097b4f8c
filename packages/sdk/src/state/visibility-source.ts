/**
 * Whether someone may be looking, and when they come back: a reconnecting object (the chat session) keeps trying
 * while the page is visible and online, pauses while it is not, and tries at once when it comes back.
 */
export interface VisibilitySource {
  /** The page is visible and the device online: reconnecting can help and the answer will be read. */
  isVisible(): boolean;
  /** Calls `listener` when the page may have come back (visible again, online again, focused); answers the function that stops it. */
  onVisible(listener: () => void): () => void;
}

/** Node, a CLI, a worker: always visible, never told anything. */
export const alwaysVisible: VisibilitySource = {
  isVisible: () => true,
  onVisible: () => () => {},
};

interface BrowserGlobals {
  document?: {
    visibilityState?: string;
    addEventListener(type: string, listener: () => void): void;
    removeEventListener(type: string, listener: () => void): void;
  };
  navigator?: { onLine?: boolean };
  addEventListener?(type: string, listener: () => void): void;
  removeEventListener?(type: string, listener: () => void): void;
}

/**
 * The browser's: `document.visibilityState`, `navigator.onLine`, and the `visibilitychange`, `online` and `focus`
 * events. Globals are read at each call, so a test's fakes installed later apply; without a `document` it is
 * {@link alwaysVisible}.
 */
export const browserVisibility: VisibilitySource = {
  isVisible: () => {
    const g = globalThis as BrowserGlobals;
    if (!g.document) return true;
    return g.document.visibilityState !== 'hidden' && g.navigator?.onLine !== false;
  },
  onVisible: (listener) => {
    const g = globalThis as BrowserGlobals;
    const document = g.document;
    if (!document) return () => {};
    const onVisibility = () => {
      if (document.visibilityState !== 'hidden') listener();
    };
    document.addEventListener('visibilitychange', onVisibility);
    g.addEventListener?.('online', listener);
    g.addEventListener?.('focus', listener);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      g.removeEventListener?.('online', listener);
      g.removeEventListener?.('focus', listener);
    };
  },
};
