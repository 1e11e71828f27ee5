import { Navigate, createBrowserRouter, type RouteObject } from 'react-router';
import { FullScreenSpinner } from '@/components/ui/spinner';
import { LoginRoute } from './routes/login';
import { PosRoute } from './routes/pos';
import { RequireSession } from './routes/require-session';
import { RootLayout } from './routes/root';

/**
 * Spec 2.1. Login and the till ship in the entry chunk; every other screen (password reset, first
 * setup, not found, back office) is `lazy` so it downloads on first use (issue 24: the JavaScript
 * for sign-in + till); the service worker precaches them all for offline use.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    hydrateFallbackElement: <FullScreenSpinner />,
    children: [
      { index: true, element: <LoginRoute /> },
      { path: 'forgot-password', lazy: async () => ({ Component: (await import('./routes/forgot-password')).ForgotPasswordRoute }) },
      { path: 'setup', lazy: async () => ({ Component: (await import('./routes/setup')).SetupRoute }) },
      { path: 'reset-password/*', lazy: async () => ({ Component: (await import('./routes/reset-password')).ResetPasswordRoute }) },
      {
        element: <RequireSession />,
        children: [
          { path: 'pos', element: <PosRoute /> },
          {
            path: 'pos/dashboard',
            lazy: async () => ({ Component: (await import('./routes/pos-dashboard')).PosDashboardRoute }),
          },
          // The settings modal lives on the till; /settings opens it there.
          { path: 'settings', element: <Navigate to="/pos?settings=1" replace /> },
        ],
      },
      { path: '*', lazy: async () => ({ Component: (await import('./routes/not-found')).NotFoundRoute }) },
    ],
  },
  // The admin shell (spec 2.1 admin variant): its own lazy chunk, beside the till's layout (no chooser).
  {
    path: 'admin/*',
    hydrateFallbackElement: <FullScreenSpinner />,
    lazy: async () => ({ Component: (await import('./routes/admin/admin-app')).AdminApp }),
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
