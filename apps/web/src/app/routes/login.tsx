import { Navigate, useLocation } from 'react-router';
import { AuthLayout } from '@/components/layout/auth-layout';
import { LoginForm } from '@/features/auth/components/login-form';
import { isAdmin } from '@/features/admin/admin-session';
import { useSetupStatus } from '@/features/setup/api';
import { useSession } from '@/lib/session';
import { returnPath } from './require-session';

/** Where a user with back-office permissions lands after signing in (issue 23). */
export const BACK_OFFICE_HOME = '/admin/dashboard';

/**
 * `/`: the login (or the first-run setup on an install with no user). Just signed in: back to where
 * the user came from; else an owner or manager (back-office permissions) lands in the back office
 * and a cashier on the till's store/terminal chooser. A session restored with its store and
 * terminal (a till reloaded) goes on to /pos.
 */
export function LoginRoute() {
  const session = useSession();
  const location = useLocation();
  // A fresh install with no user yet: the first-run setup instead (offline: the status is unknown, stay).
  const setup = useSetupStatus();
  if (!session.user && setup.data?.needed) return <Navigate to="/setup" replace />;
  const from = returnPath(location.state, location.search);
  if (session.ready) return <Navigate to={from ?? '/pos'} replace />;
  if (session.user && isAdmin(session.user) && !from) return <Navigate to={BACK_OFFICE_HOME} replace />;
  return (
    <AuthLayout>
      <LoginForm />
    </AuthLayout>
  );
}
