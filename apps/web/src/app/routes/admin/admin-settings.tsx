import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams } from 'react-router';
import { SettingsPage } from '@/features/settings/components/settings-page';
import { BACK_OFFICE_SETTINGS, tabOfSlug, tabSlug, tabsFor, type SettingsTab } from '@/features/settings/components/settings-tabs-registry';
import { useSession } from '@/lib/session';

const STAFF_TABS: readonly SettingsTab[] = ['users', 'roles'];

/** /admin/settings/:tab (issue 23): stores, terminals, printers, payment types, taxes, … one address per tab; /admin/settings opens the first the user may use. */
export function AdminSettingsRoute() {
  const { tab } = useParams();
  const navigate = useNavigate();
  const { user } = useSession();
  const current = tabOfSlug(tab);
  const first = tabsFor(user, BACK_OFFICE_SETTINGS)[0];
  if ((!current || !BACK_OFFICE_SETTINGS.includes(current)) && first) return <Navigate to={`/admin/settings/${tabSlug(first)}`} replace />;
  return <SettingsPage tab={current} onTab={(next) => void navigate(`/admin/settings/${tabSlug(next)}`)} />;
}

/** /admin/staff/:tab: the users and the roles (the same tabs as the till's settings dialog). */
export function AdminStaffRoute() {
  const { t } = useTranslation('admin');
  const { tab } = useParams();
  const navigate = useNavigate();
  const current = tabOfSlug(tab);
  if (!current || !STAFF_TABS.includes(current)) return <Navigate to="/admin/staff/users" replace />;
  return <SettingsPage title={t('staff.title')} tabs={STAFF_TABS} tab={current} onTab={(next) => void navigate(`/admin/staff/${tabSlug(next)}`)} />;
}
