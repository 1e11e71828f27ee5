import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { UserMenu } from '@/components/layout/user-menu';
import { isAdmin } from '@/features/admin/admin-session';
import { useSession } from '@/lib/session';

/** The till's end of the toolbar (issue 23): "Back office" for a user allowed there, and the user menu. */
export function TillUserMenu() {
  const { t } = useTranslation('common');
  const { user } = useSession();
  if (!user) return null;
  return (
    <>
      {isAdmin(user) && <Link to="/admin/dashboard" className="btn btn-ghost btn-sm">{t('places.backOffice')}</Link>}
      <UserMenu name={user.displayName || user.username} />
    </>
  );
}
