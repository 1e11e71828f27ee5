import { Navigate, Outlet, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AdminShell } from '@/features/admin/components/admin-shell';
import { isAdmin } from '@/features/admin/admin-session';
import { LogoutButton } from '@/features/auth/components/logout-button';
import { useSession } from '@/lib/session';

/** The signed-in part of the admin shell: administrators only, everyone else to /admin (remembering the page). */
export function AdminLayoutRoute() {
  const { t } = useTranslation('admin');
  const { user } = useSession();
  const location = useLocation();
  if (!user || !isAdmin(user)) {
    return <Navigate to="/admin" replace state={{ from: `${location.pathname}${location.search}${location.hash}` }} />;
  }
  return (
    <AdminShell user={user} signOut={<LogoutButton redirectTo="/admin" variant="secondary" size="sm">{t('header.signOut')}</LogoutButton>}>
      <Outlet />
    </AdminShell>
  );
}
