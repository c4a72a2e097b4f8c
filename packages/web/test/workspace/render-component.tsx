import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import type { BrowserPorts } from '../../src/platform/browser-ports';
import { BrowserPortsContext } from '../../src/platform/browser-ports-context';
import { ManualClock } from '../support/manual-clock';
import { memoryStorage } from '../support/render-app';

/**
 * One component inside a memory router (menus close on navigation) with browser ports whose storage and
 * clock a test can see.
 */
export function renderComponent(element: ReactElement, storage = memoryStorage()) {
  const ports: BrowserPorts = {
    clock: new ManualClock(),
    storage: () => storage,
    submitForm: vi.fn(),
    opener: () => null,
    closeWindow: vi.fn(),
    origin: () => 'http://planwright.test',
    logError: vi.fn(),
  };
  const router = createMemoryRouter([{ path: '*', element }]);
  const view = render(
    <BrowserPortsContext value={ports}>
      <RouterProvider router={router} />
    </BrowserPortsContext>,
  );
  return { ...view, storage, router };
}
