import { Navigate, useLocation } from 'react-router';
import { AuthLayout } from '@/components/layout/auth-layout';
import { LoginForm } from '@/features/auth/components/login-form';
import { useSetupStatus } from '@/features/setup/api';
import { useSession } from '@/lib/session';
import { returnPath } from './require-session';

/** `/`: the login (or the first-run setup on an install with no user); once signed in with a store and terminal, on to /pos or where the user came from. */
export function LoginRoute() {
  const session = useSession();
  const location = useLocation();
  // A fresh install with no user yet: the first-run setup instead (offline: the status is unknown, stay).
  const setup = useSetupStatus();
  if (!session.user && setup.data?.needed) return <Navigate to="/setup" replace />;
  if (session.ready) return <Navigate to={returnPath(location.state, location.search) ?? '/pos'} replace />;
  return (
    <AuthLayout>
      <LoginForm />
    </AuthLayout>
  );
}
