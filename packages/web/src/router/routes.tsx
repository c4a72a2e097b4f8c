import type { RouteObject } from 'react-router';
import { PageLoadingFallback, PublicLayout } from '../layout/public-layout';
import { LandingPage } from '../pages/landing-page';
import { NotFoundPage } from '../pages/not-found-page';
import { RouteErrorPage } from '../pages/route-error-page';

/**
 * The route table (spec 000 §2). Every page but `/` and not-found is its own chunk, so what `/` downloads
 * stays small however heavy later screens (the editor) get. `/` stays in the entry chunk: splitting it off
 * would only add a request after the entry for the most visited page.
 */
export const routes: RouteObject[] = [
  {
    Component: PublicLayout,
    HydrateFallback: PageLoadingFallback,
    children: [
      {
        // Errors render inside the layout, so navigation stays usable.
        ErrorBoundary: RouteErrorPage,
        children: [
          { index: true, Component: LandingPage },
          {
            path: 'pricing',
            lazy: () => import('../pages/pricing-page').then((m) => ({ Component: m.PricingPage })),
          },
          {
            path: 'about',
            lazy: () => import('../pages/about-page').then((m) => ({ Component: m.AboutPage })),
          },
          {
            path: 'contact',
            lazy: () => import('../pages/contact-page').then((m) => ({ Component: m.ContactPage })),
          },
          { path: '*', Component: NotFoundPage },
        ],
      },
    ],
  },
];
