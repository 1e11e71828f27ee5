import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@pos/domain/format';
import { useMoney } from '@/lib/money';
import { Button } from '@/components/ui/button';
import { confirm } from '@/components/ui/confirm-dialog';
import { Dialog } from '@/components/ui/dialog';
import { toast } from '@/components/ui/toast';
import { useSession } from '@/lib/session';
import type { OutboxSale } from '@/features/outbox/outbox-db';
import { outbox, startOutboxSync } from '@/features/outbox/outbox-app';
import '@/features/outbox/outbox.css';
import { useAnnounceRejected } from '@/features/announcer/use-till-announcements';

/** Every outbox row, live (also changes made by other tabs). */
function useOutboxRows(): OutboxSale[] {
  const [rows, setRows] = useState<OutboxSale[]>([]);
  useEffect(() => {
    const { db } = outbox();
    let live = true;
    let reading = Promise.resolve();
    // Re-read after every change (this tab's writes, other tabs' over a BroadcastChannel), one read at a time.
    const read = () => {
      reading = reading.then(() => db.sales()).then((r) => { if (live) setRows(r); }, () => { if (live) setRows([]); });
    };
    const stop = db.watch(read);
    read();
    return () => {
      live = false;
      stop();
    };
  }, []);
  return rows;
}

function useOnline(): boolean {
  const box = outbox();
  const browserOnline = useSyncExternalStore(
    (cb) => {
      window.addEventListener('online', cb);
      window.addEventListener('offline', cb);
      return () => {
        window.removeEventListener('online', cb);
        window.removeEventListener('offline', cb);
      };
    },
    () => navigator.onLine,
    () => true,
  );
  const reachable = useSyncExternalStore((cb) => box.subscribe(cb), () => box.reachable, () => null);
  return browserOnline && reachable !== false;
}

/**
 * The till's counter of unsent sales (issue 9): how many sales wait in the outbox, a Retry button,
 * and the list with each sale's state and the server's reason for a rejected one. Mounting it
 * starts the uploads (online event, every 10 s).
 */
export function OutboxIndicator({ locale = 'en' }: { locale?: string }) {
  const { t } = useTranslation('outbox');
  const rows = useOutboxRows();
  const online = useOnline();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => startOutboxSync(), []);

  const box = outbox();
  const serverBusy = useSyncExternalStore((cb) => box.subscribe(cb), () => box.busy, () => false);
  const unsent = useMemo(() => rows.filter((r) => r.status !== 'sent'), [rows]);
  const rejected = unsent.filter((r) => r.status === 'rejected').length;
  useAnnounceRejected(rejected); // a sync error is said out loud (issue 29.4)

  const retryAll = async () => {
    setBusy(true);
    try {
      const r = await outbox().retryAll();
      if (r.unreachable) toast.error(t('stillUnreachable'));
      else if (!r.ran) toast.info(t('otherTab'));
    } finally {
      setBusy(false);
    }
  };

  const tone = rejected ? 'outbox-indicator--rejected' : unsent.length ? 'outbox-indicator--pending' : 'outbox-indicator--ok';
  return (
    <div className={`outbox-indicator ${tone}`}>
      {!online && <span className="outbox-offline" data-testid="outbox-offline">{t('offline')}</span>}
      {online && serverBusy && <span className="outbox-offline" data-testid="outbox-busy" role="status">{t('busy')}</span>}
      <Button size="sm" variant="ghost" onClick={() => setOpen(true)} aria-label={t('counterLabel', { count: unsent.length })} title={t('counterLabel', { count: unsent.length })}>
        <span data-testid="outbox-count" className="outbox-count">{unsent.length}</span> {t('unsent', { count: unsent.length })}
        {rejected > 0 && <span className="outbox-rejected-count"> ({t('rejectedCount', { count: rejected })})</span>}
      </Button>
      {unsent.length > 0 && (
        <Button size="sm" variant="secondary" loading={busy} onClick={() => void retryAll()}>{t('retry')}</Button>
      )}
      <OutboxDialog open={open} onClose={() => setOpen(false)} rows={rows} locale={locale} busy={busy} onRetryAll={() => void retryAll()} />
    </div>
  );
}

function OutboxDialog({ open, onClose, rows, busy, onRetryAll }: { open: boolean; onClose: () => void; rows: OutboxSale[]; locale: string; busy: boolean; onRetryAll: () => void }) {
  const currency = useMoney();
  const { t } = useTranslation('outbox');
  const { user } = useSession();
  const isManager = !!user?.roles.includes('ROLE_ADMIN');
  const unsent = rows.filter((r) => r.status !== 'sent');
  const sent = rows.filter((r) => r.status === 'sent').slice(-20).reverse();
  const money = (v: number | undefined) => currency.formatWire(v ?? 0);

  const retry = async (row: OutboxSale) => {
    await outbox().retry(row.uuid);
    const r = await outbox().uploadPending({ force: true });
    if (r.unreachable) toast.error(t('stillUnreachable'));
  };

  const discard = async (row: OutboxSale) => {
    const ok = await confirm(t('confirmDiscard', { ref: row.localRef, total: money(row.summary?.total), reason: row.lastError ?? '' }), { title: t('discardTitle'), danger: true });
    if (!ok) return;
    if (await outbox().discard(row.uuid)) toast.success(t('discarded', { ref: row.localRef }));
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={t('title')}
      size="xl"
      footer={<Button onClick={onRetryAll} loading={busy} disabled={!unsent.length}>{t('retryAll')}</Button>}
    >
      {unsent.length === 0 ? (
        <p className="text-muted">{t('empty')}</p>
      ) : (
        <table className="data-table outbox-table" aria-label={t('title')}>
          <thead>
            <tr>
              <th>{t('ref')}</th>
              <th>{t('time')}</th>
              <th>{t('total')}</th>
              <th>{t('status')}</th>
              <th>{t('reason')}</th>
              <th>{t('actions')}</th>
            </tr>
          </thead>
          <tbody>
            {unsent.map((r) => (
              <tr key={r.uuid} data-testid="outbox-row" className={`outbox-row--${r.status}`}>
                <td>
                  {r.localRef}
                  {r.summary?.held && <span className="badge">{t('held')}</span>}
                </td>
                <td>{formatDateTime(r.createdAt)}</td>
                <td>{money(r.summary?.total)}</td>
                <td>{t(`state.${r.status}`)}{r.attempts > 0 && <div className="text-muted">{t('attempts', { count: r.attempts })}</div>}</td>
                <td className={r.status === 'rejected' ? 'text-danger' : 'text-muted'}>{r.lastError ?? ''}</td>
                <td>
                  <div className="row">
                    {(r.status === 'rejected' || r.status === 'pending') && (
                      <Button size="sm" variant="secondary" onClick={() => void retry(r)}>{t('retry')}</Button>
                    )}
                    {r.status === 'rejected' && (
                      <Button size="sm" variant="danger" disabled={!isManager} title={isManager ? undefined : t('managerOnly')} onClick={() => void discard(r)}>
                        {t('discard')}
                      </Button>
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {sent.length > 0 && (
        <section className="outbox-sent">
          <h3>{t('recentlySent')}</h3>
          <ul>
            {sent.map((r) => (
              <li key={r.uuid}>
                {t('sentAs', { ref: r.localRef, number: r.orderId ?? r.serverId ?? '?' })}
              </li>
            ))}
          </ul>
        </section>
      )}
    </Dialog>
  );
}
