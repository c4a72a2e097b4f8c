import { BrowserStorageTokenStore, createPlanwrightClient, type SessionInfo } from '@planwright/sdk';
import { FakeChatServer } from '@planwright/sdk/testing';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import { StrictMode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { PlanwrightClientContext } from '../../src/api/client-context';
import { ChatSessionOptionsContext } from '../../src/chat/chat-session-context';
import type { BrowserPorts, KeyValueStorage } from '../../src/platform/browser-ports';
import { BrowserPortsContext } from '../../src/platform/browser-ports-context';
import { routes } from '../../src/router/routes';
import type { FakeServer } from './fake-server';
import { ManualClock } from './manual-clock';

/** A `localStorage` stand-in whose contents a test can read. */
export function memoryStorage(
  initial: Record<string, string> = {},
): KeyValueStorage & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => {
      data.set(key, value);
    },
    removeItem: (key) => {
      data.delete(key);
    },
    get length() {
      return data.size;
    },
    key: (index) => [...data.keys()][index] ?? null,
  };
}

export interface RenderAppOptions {
  /** Where the app starts. */
  path: string;
  server: FakeServer;
  /** A session stored before the app starts. */
  session?: SessionInfo;
  storage?: ReturnType<typeof memoryStorage>;
  ports?: Partial<BrowserPorts>;
  /** Render inside `<StrictMode>`, which mounts every component twice as development does. */
  strict?: boolean;
}

/**
 * Loads the editing workspace's lazy chunk (Tiptap, Yjs and the workspace), for a file's `beforeAll`: its first
 * compile on a loaded 2-core CI machine took over 10 s, which a test that clicks its way into the editor must not
 * spend inside its own waits. Vitest keeps the compiled modules, so the file's tests then open the editor at once.
 */
export const loadEditorRoute = () => import('../../src/pages/dashboard/plan-editor-page');

/** How long `loadEditorRoute` may take: a first compile under load, not a wait for the app. */
export const EDITOR_COMPILE_TIMEOUT_MS = 120_000;

/**
 * The whole app (its real route table, lazy pages included) in a memory router, over a real SDK client whose
 * only fake is the network, with the browser ports replaced: a manual clock, storage a test can read, and
 * spies for form submission, popups and logging.
 */
export function renderApp(options: RenderAppOptions) {
  const storage = options.storage ?? memoryStorage();
  const tokenStore = new BrowserStorageTokenStore({ storage });
  if (options.session) tokenStore.setSession(options.session);
  const clock = new ManualClock();
  const ports = {
    clock,
    storage: () => storage,
    submitForm: vi.fn<BrowserPorts['submitForm']>(),
    opener: () => null,
    closeWindow: vi.fn<BrowserPorts['closeWindow']>(),
    origin: () => 'http://planwright.test',
    logError: vi.fn<BrowserPorts['logError']>(),
    ...options.ports,
  } satisfies BrowserPorts;
  const onAuthRequired = vi.fn();
  const client = createPlanwrightClient({
    baseUrl: 'http://planwright.test',
    fetch: options.server.fetch,
    tokenStore,
    onAuthRequired,
  });
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const router = createMemoryRouter(routes, { initialEntries: [options.path] });
  // The editor's chat panel opens a socket: here one that never opens (no network; the chat's own tests
  // drive a FakeChatServer that answers).
  const chatOptions = { socketFactory: new FakeChatServer().factory };
  const app = (
    <PlanwrightClientContext value={client}>
      <BrowserPortsContext value={ports}>
        <ChatSessionOptionsContext value={chatOptions}>
          <QueryClientProvider client={queryClient}>
            <RouterProvider router={router} />
          </QueryClientProvider>
        </ChatSessionOptionsContext>
      </BrowserPortsContext>
    </PlanwrightClientContext>
  );
  const view = render(options.strict ? <StrictMode>{app}</StrictMode> : app);
  return {
    ...view,
    router,
    client,
    tokenStore,
    storage,
    clock,
    ports,
    queryClient,
    onAuthRequired,
    /** Path and query of the router's location. */
    location: () => `${router.state.location.pathname}${router.state.location.search}`,
    /** Moves the manual clock, letting React render what the timers changed. */
    advance: (ms: number) =>
      act(() => {
        clock.advance(ms);
      }),
  };
}
