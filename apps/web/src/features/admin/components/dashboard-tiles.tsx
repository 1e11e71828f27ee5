import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '@pos/domain/format';
import { useBackups } from '@/features/backup/api/backups';
import { fetchReport } from '@/features/reports/api/reports';
import { apiFetch } from '@/lib/api-client';
import { moneyFor, moneySettingsOf } from '@/lib/money';
import type { Store } from '@/lib/session';

/** Today in the browser's calendar (YYYY-MM-DD); the server reads it in each store's time zone. */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * Today's sales per store (GET /api/reports/sales, one store per call: stores may keep different
 * currencies and a report never sums two), the gross in the store's currency and the orders.
 */
export function TodaySalesTile({ stores }: { stores: Store[] }) {
  const { t, i18n } = useTranslation('admin');
  const today = localToday();
  const query = useQuery({
    queryKey: ['dashboard', 'sales', today, stores.map((s) => s.id)],
    queryFn: () => Promise.all(stores.map((s) => fetchReport({ kind: 'sales', from: today, to: today, store: String(s.id), group: 'day' }).then((r) => ({ store: s, report: r })))),
    enabled: stores.length > 0,
  });
  return (
    <section className="admin-card" aria-labelledby="dash-sales-title" data-testid="today-sales-tile">
      <h2 id="dash-sales-title">{t('dashboard.todaySales')}</h2>
      {query.isError && <p className="text-muted">{t('dashboard.unavailable')}</p>}
      <ul className="dash-list">
        {(query.data ?? []).map(({ store, report }) => {
          const money = moneyFor(moneySettingsOf({ ...store, currency: report.currency ?? store.currency }), i18n.language);
          const totals = (report.totals ?? {}) as Record<string, number | string | null>;
          return (
            <li key={store.id}>
              <span>{store.name}</span>
              <strong>{money.formatMinor(Number(totals.gross ?? 0))}</strong>
              <span className="text-muted">{t('dashboard.orders', { count: Number(totals.orders ?? 0) })}</span>
            </li>
          );
        })}
      </ul>
      <Link to="/admin/reports">{t('sidebar.reports')}</Link>
    </section>
  );
}

interface OpenTill { closing: number; store: { id: number; name: string }; terminal: { id: number; code: string } | null; openedAt: string; openedBy: string | null }

/** The tills whose day is started and not closed (GET /api/admin/closing/open). */
export function OpenTillsTile() {
  const { t } = useTranslation('admin');
  const query = useQuery({ queryKey: ['dashboard', 'open-tills'], queryFn: () => apiFetch<{ list: OpenTill[]; count: number }>('/admin/closing/open') });
  const list = query.data?.list ?? [];
  return (
    <section className="admin-card" aria-labelledby="dash-tills-title" data-testid="open-tills-tile">
      <h2 id="dash-tills-title">{t('dashboard.openTills', { count: list.length })}</h2>
      {query.isError && <p className="text-muted">{t('dashboard.unavailable')}</p>}
      {query.isSuccess && !list.length && <p className="text-muted">{t('dashboard.noOpenTills')}</p>}
      <ul className="dash-list">
        {list.map((till) => (
          <li key={till.closing}>
            <span>{t('dashboard.till', { store: till.store.name, terminal: till.terminal?.code ?? '' })}</span>
            <span className="text-muted">{t('dashboard.openedBy', { time: formatDateTime(till.openedAt), name: till.openedBy ?? '' })}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The last backup (GET /api/admin/backups: the owner's; anyone else is refused, and the tile is not shown). */
export function LastBackupTile() {
  const { t } = useTranslation('admin');
  const query = useBackups();
  if (query.isError) return null;
  const last = query.data?.last ?? null;
  return (
    <section className="admin-card" aria-labelledby="dash-backup-title" data-testid="last-backup-tile">
      <h2 id="dash-backup-title">{t('dashboard.lastBackup')}</h2>
      {query.isSuccess && <strong>{last ? formatDateTime(last.createdAt) : t('dashboard.noBackup')}</strong>}
      <Link to="/admin/backups">{t('backup:nav')}</Link>
    </section>
  );
}
