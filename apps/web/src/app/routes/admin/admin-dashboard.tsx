import { useTranslation } from 'react-i18next';
import { DemoDashboard } from '@/features/admin/components/demo-dashboard';
import { LowStockTile } from '@/features/reorder/components/low-stock-tile';
import { useCan } from '@/lib/permissions';

/** /admin/dashboard: the low-stock tile (with 'purchasing', issue 25.4) and the static demo dashboard. */
export function AdminDashboardRoute() {
  const { t } = useTranslation('admin');
  const lowStock = useCan('purchasing');
  return (
    <>
      <h1>{t('dashboard.title')}</h1>
      {lowStock && <LowStockTile />}
      <DemoDashboard />
    </>
  );
}
