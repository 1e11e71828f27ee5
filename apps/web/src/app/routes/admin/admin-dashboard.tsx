import { useTranslation } from 'react-i18next';
import { DemoDashboard } from '@/features/admin/components/demo-dashboard';

/** /admin/dashboard: the static demo dashboard. */
export function AdminDashboardRoute() {
  const { t } = useTranslation('admin');
  return (
    <>
      <h1>{t('dashboard.title')}</h1>
      <DemoDashboard />
    </>
  );
}
