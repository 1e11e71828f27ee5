import { useTranslation } from 'react-i18next';
import { LastBackupTile, OpenTillsTile, TodaySalesTile } from '@/features/admin/components/dashboard-tiles';
import { LowStockTile } from '@/features/reorder/components/low-stock-tile';
import { useCan } from '@/lib/permissions';
import { useSession } from '@/lib/session';

/**
 * /admin/dashboard (issue 23): today's sales ('reports.view'), the open tills, the low-stock tile
 * ('purchasing', issue 25.4) and the last backup ('settings'; the server answers the owner only).
 */
export function AdminDashboardRoute() {
  const { t } = useTranslation('admin');
  const { user } = useSession();
  const sales = useCan('reports.view');
  const lowStock = useCan('purchasing');
  const backups = useCan('settings');
  return (
    <>
      <h1>{t('dashboard.title')}</h1>
      <div className="admin-cards admin-dashboard">
        {sales && <TodaySalesTile stores={user?.stores ?? []} />}
        <OpenTillsTile />
        {backups && <LastBackupTile />}
      </div>
      {lowStock && <LowStockTile />}
    </>
  );
}
