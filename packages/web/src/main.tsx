// First: configures zod before any schema of the SDK is built (see the module).
import './strict-csp-validation';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { createQueryClient } from './api/query-client';
import { routes } from './router/routes';
import { themeStore } from './theme/theme-store';
import './index.css';

// The inline script in index.html already set data-theme; this starts the store (and its system-preference watch).
themeStore.getSnapshot();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const queryClient = createQueryClient();
const router = createBrowserRouter(routes);

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
