import type { RouteObject } from 'react-router';
import { PageLoadingFallback, PublicLayout } from '../layout/public-layout';
import { LandingPage } from '../pages/landing-page';
import { NotFoundPage } from '../pages/not-found-page';
import { RouteErrorPage } from '../pages/route-error-page';

/**
 * The route table (spec 000 §2). Every page but `/` and not-found is its own chunk, so what `/` downloads
 * stays small however heavy later screens (the editor) get. `/` stays in the entry chunk: splitting it off
 * would only add a request after the entry for the most visited page. The signed-in layout (with the
 * guard) is a chunk too: `/` never loads the SDK.
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
          {
            // The legal pages sit where spec 000 links them from sign-up (`/web/terms`).
            path: 'web',
            children: [
              {
                path: 'terms',
                lazy: () => import('../pages/legal-pages').then((m) => ({ Component: m.TermsPage })),
              },
              {
                path: 'privacy',
                lazy: () => import('../pages/legal-pages').then((m) => ({ Component: m.PrivacyPage })),
              },
            ],
          },
          {
            // The link of an invitation e-mail (docs/teams.md): signed in or not.
            path: 'invitations/:token',
            lazy: () => import('../pages/invitation-page').then((m) => ({ Component: m.InvitationPage })),
          },
          {
            path: 'account',
            children: [
              {
                path: 'signin',
                lazy: () =>
                  import('../pages/account/sign-in-page').then((m) => ({ Component: m.SignInPage })),
              },
              {
                path: 'signup',
                lazy: () =>
                  import('../pages/account/sign-up-page').then((m) => ({ Component: m.SignUpPage })),
              },
              {
                path: 'signout',
                lazy: () =>
                  import('../pages/account/sign-out-page').then((m) => ({ Component: m.SignOutPage })),
              },
              {
                path: 'verify-email/:key',
                lazy: () =>
                  import('../pages/account/verify-email-page').then((m) => ({
                    Component: m.VerifyEmailPage,
                  })),
              },
              {
                path: 'password/reset',
                lazy: () =>
                  import('../pages/account/password-reset-request-page').then((m) => ({
                    Component: m.PasswordResetRequestPage,
                  })),
              },
              {
                path: 'password/reset/key/:key',
                lazy: () =>
                  import('../pages/account/password-reset-page').then((m) => ({
                    Component: m.PasswordResetPage,
                  })),
              },
              {
                path: 'google/login/callback',
                lazy: () =>
                  import('../pages/account/provider-callback-page').then((m) => ({
                    Component: m.ProviderCallbackPage,
                  })),
              },
            ],
          },
          { path: '*', Component: NotFoundPage },
        ],
      },
    ],
  },
  {
    // Guarded (spec 000 §2): the layout checks for a stored session before anything inside renders.
    path: 'dashboard',
    HydrateFallback: PageLoadingFallback,
    ErrorBoundary: RouteErrorPage,
    lazy: () => import('../layout/signed-in-layout').then((m) => ({ Component: m.SignedInLayout })),
    children: [
      {
        ErrorBoundary: RouteErrorPage,
        children: [
          {
            index: true,
            lazy: () =>
              import('../pages/dashboard/dashboard-page').then((m) => ({ Component: m.DashboardPage })),
          },
          {
            path: 'team',
            lazy: () => import('../pages/dashboard/team-page').then((m) => ({ Component: m.TeamPage })),
          },
          {
            path: 'profile',
            lazy: () => import('../pages/dashboard/profile-page').then((m) => ({ Component: m.ProfilePage })),
          },
          {
            path: 'documents',
            lazy: () =>
              import('../pages/dashboard/documents-page').then((m) => ({ Component: m.DocumentsPage })),
          },
          {
            path: 'documents/:uuid',
            lazy: () =>
              import('../pages/dashboard/document-page').then((m) => ({ Component: m.DocumentPage })),
          },
          {
            // The editing workspace (spec 001 §2): its own chunk, the editor's weight stays off every other route.
            path: 'documents/:uuid/edit',
            lazy: () =>
              import('../pages/dashboard/plan-editor-page').then((m) => ({
                Component: m.DocumentEditorPage,
              })),
          },
          {
            path: 'blueprints',
            lazy: () =>
              import('../pages/dashboard/blueprints-page').then((m) => ({ Component: m.BlueprintsPage })),
          },
          {
            path: 'blueprints/:uuid',
            lazy: () =>
              import('../pages/dashboard/blueprint-page').then((m) => ({ Component: m.BlueprintPage })),
          },
          {
            // The blueprint editor shares the document editor's workspace and chunk.
            path: 'blueprints/:uuid/edit',
            lazy: () =>
              import('../pages/dashboard/plan-editor-page').then((m) => ({
                Component: m.BlueprintEditorPage,
              })),
          },
          { path: '*', Component: NotFoundPage },
        ],
      },
    ],
  },
];
