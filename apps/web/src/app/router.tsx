import { Suspense, lazy, type ComponentType } from 'react';
import { Navigate, useRoutes, type RouteObject } from 'react-router';
import { FullScreenSpinner } from '@/components/ui/spinner';
import { LoginRoute } from './routes/login';
import { PosRoute } from './routes/pos';
import { RequireSession } from './routes/require-session';
import { RootLayout } from './routes/root';

/** A screen in its own chunk, downloaded on first use (a spinner meanwhile). */
function lazyScreen(load: () => Promise<ComponentType>) {
  const Screen = lazy(async () => ({ default: await load() }));
  return (
    <Suspense fallback={<FullScreenSpinner />}>
      <Screen />
    </Suspense>
  );
}

/**
 * Spec 2.1. Login and the till ship in the entry chunk; every other screen (password reset, first
 * setup, not found, back office) is lazy so it downloads on first use (issue 24: the JavaScript
 * for sign-in + till); the service worker precaches them all for offline use.
 *
 * The table is rendered with react-router's declarative `useRoutes` inside a `BrowserRouter`
 * (main.tsx), not a data router: the app has no loaders or actions, and the data router costs
 * 15 KB more brotli on the sign-in page (issue 20/24, measured in ARCHITECTURE.md).
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { index: true, element: <LoginRoute /> },
      // The sign-in page's other address (issue 23: /login, for bookmarks and links).
      { path: 'login', element: <LoginRoute /> },
      { path: 'forgot-password', element: lazyScreen(async () => (await import('./routes/forgot-password')).ForgotPasswordRoute) },
      { path: 'setup', element: lazyScreen(async () => (await import('./routes/setup')).SetupRoute) },
      { path: 'reset-password/*', element: lazyScreen(async () => (await import('./routes/reset-password')).ResetPasswordRoute) },
      {
        element: <RequireSession />,
        children: [
          { path: 'pos', element: <PosRoute /> },
          { path: 'pos/dashboard', element: lazyScreen(async () => (await import('./routes/pos-dashboard')).PosDashboardRoute) },
          // The settings modal lives on the till; /settings opens it there.
          { path: 'settings', element: <Navigate to="/pos?settings=1" replace /> },
        ],
      },
      { path: '*', element: lazyScreen(async () => (await import('./routes/not-found')).NotFoundRoute) },
    ],
  },
  // The admin shell (spec 2.1 admin variant): its own lazy chunk, beside the till's layout (no chooser).
  { path: 'admin/*', element: lazyScreen(async () => (await import('./routes/admin/admin-app')).AdminApp) },
];

export function AppRoutes() {
  return useRoutes(routes);
}
