import { useTranslation } from 'react-i18next';
import { BackupPanel } from '@/features/backup/components/backup-panel';

/** /admin/backups: the shop's backups (features/backup). */
export function AdminBackupsRoute() {
  const { t } = useTranslation('backup');
  return (
    <>
      <h1>{t('title')}</h1>
      <BackupPanel />
    </>
  );
}
