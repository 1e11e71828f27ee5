import { Navigate, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AuthLayout } from '@/components/layout/auth-layout';
import { Alert } from '@/components/ui/alert';
import { ADMIN_ROLE } from '@/features/admin/api/get-current-user';
import { isAdmin } from '@/features/admin/admin-session';
import { LoginForm } from '@/features/auth/components/login-form';
import { useSession } from '@/lib/session';
import { returnPath } from '../require-session';

export const ADMIN_HOME = '/admin/dashboard';

/** /admin: the login (role ROLE_ADMIN); an administrator already signed in goes on to the dashboard. */
export function AdminLoginRoute() {
  const { t } = useTranslation('admin');
  const session = useSession();
  const location = useLocation();
  if (isAdmin(session.user)) {
    const from = returnPath(location.state, location.search);
    return <Navigate to={from?.startsWith('/admin/') ? from : ADMIN_HOME} replace />;
  }
  return (
    <AuthLayout brand={t('brand')}>
      {session.user && <Alert variant="info">{t('login.notAdmin', { name: session.user.displayName || session.user.username })}</Alert>}
      <LoginForm role={ADMIN_ROLE} forgotPath="/admin/forgot-password" />
    </AuthLayout>
  );
}
