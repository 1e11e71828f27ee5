import { Navigate, createBrowserRouter, type RouteObject } from 'react-router';
import { FullScreenSpinner } from '@/components/ui/spinner';
import { ForgotPasswordRoute } from './routes/forgot-password';
import { LoginRoute } from './routes/login';
import { NotFoundRoute } from './routes/not-found';
import { PosRoute } from './routes/pos';
import { RequireSession } from './routes/require-session';
import { ResetPasswordRoute } from './routes/reset-password';
import { RootLayout } from './routes/root';
import { SetupRoute } from './routes/setup';

/**
 * Spec 2.1. Login and the till ship in the entry chunk; anything else heavy (back office screens)
 * is `lazy` so it downloads on first use.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    hydrateFallbackElement: <FullScreenSpinner />,
    children: [
      { index: true, element: <LoginRoute /> },
      { path: 'forgot-password', element: <ForgotPasswordRoute /> },
      { path: 'setup', element: <SetupRoute /> },
      { path: 'reset-password/*', element: <ResetPasswordRoute /> },
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
      { path: '*', element: <NotFoundRoute /> },
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
