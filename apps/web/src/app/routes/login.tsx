import { Navigate, useLocation } from 'react-router';
import { AuthLayout } from '@/components/layout/auth-layout';
import { LoginForm } from '@/features/auth/components/login-form';
import { useSession } from '@/lib/session';
import { returnPath } from './require-session';

/** `/`: the login; once signed in with a store and terminal, on to /pos or where the user came from. */
export function LoginRoute() {
  const session = useSession();
  const location = useLocation();
  if (session.ready) return <Navigate to={returnPath(location.state, location.search) ?? '/pos'} replace />;
  return (
    <AuthLayout>
      <LoginForm />
    </AuthLayout>
  );
}
