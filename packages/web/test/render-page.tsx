import { createPlanwrightClient, MemoryTokenStore } from '@planwright/sdk';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { PlanwrightClientContext } from '../src/api/client-context';

export type FetchHandler = (url: string, init: RequestInit) => Response | Promise<Response>;

export function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    ...init,
    headers: { 'content-type': 'application/json', ...init.headers },
  });
}

/**
 * Renders one page inside the app's providers, with a real SDK client whose `fetch` is `handler`:
 * the page, TanStack Query and the SDK all run for real, only the network is replaced.
 */
export function renderPage(page: ReactElement, handler: FetchHandler) {
  const fetch = vi.fn((input: RequestInfo | URL, init?: RequestInit) =>
    Promise.resolve(handler(String(input), init ?? {})),
  );
  const client = createPlanwrightClient({
    baseUrl: 'http://planwright.test',
    fetch: fetch as typeof globalThis.fetch,
    tokenStore: new MemoryTokenStore(),
  });
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const router = createMemoryRouter([{ path: '*', element: page }]);
  const view = render(
    <PlanwrightClientContext value={client}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </PlanwrightClientContext>,
  );
  return { ...view, fetch };
}
