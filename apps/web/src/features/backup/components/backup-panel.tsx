import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { confirm } from '@/components/ui/confirm-dialog';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { isHttpError } from '@/lib/api-client';
import { backupHref, downloadBackup, useBackUpNow, useBackups, useRestore, type BackupEntry } from '../api/backups';

const errorText = (error: unknown, fallback: string) => {
  if (isHttpError(error)) return error.violations[0]?.message ?? error.message;
  return error instanceof Error ? error.message : fallback;
};

/**
 * The shop's backups (issue 20.5): the last one, "Back up now", every file with a download link,
 * and a restore from an uploaded file after a confirmation. The server allows it to the owner only.
 */
export function BackupPanel() {
  const { t, i18n } = useTranslation('backup');
  const list = useBackups();
  const backUp = useBackUpNow();
  const restore = useRestore();
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [restored, setRestored] = useState<string | null>(null);

  const when = (iso: string) => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
  const size = (bytes: number) => bytes >= 1024 * 1024
    ? new Intl.NumberFormat(i18n.language, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 }).format(bytes / 1024 / 1024)
    : new Intl.NumberFormat(i18n.language, { style: 'unit', unit: 'kilobyte', maximumFractionDigits: 1 }).format(bytes / 1024);
  const kind = (b: BackupEntry) => t(`kinds.${b.kind}`);

  const onBackUp = async () => {
    try {
      const r = await backUp.mutateAsync();
      toast.success(t('taken', { name: r.backup.name, rows: r.rows }));
    } catch (e) {
      toast.error(errorText(e, t('failed')));
    }
  };

  const onRestore = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    setRestored(null);
    const ok = await confirm(t('restore.confirm', { name: file.name }), { title: t('restore.title'), confirmLabel: t('restore.submit'), danger: true });
    if (!ok) return;
    restore.reset();
    try {
      const r = await restore.mutateAsync(file);
      setRestored(t('restore.done', { when: when(r.restored.createdAt), rows: r.restored.rows, before: r.before.name }));
      setFile(null);
      if (fileInput.current) fileInput.current.value = '';
    } catch { /* shown below */ }
  };

  if (list.isPending) return <Spinner />;
  if (list.isError) return <Alert>{errorText(list.error, t('failed'))}</Alert>;
  const { backups, last, daily, retention, directory } = list.data;

  return (
    <div className="backup-panel">
      <section className="admin-panel" aria-labelledby="backup-last">
        <h2 id="backup-last">{t('last.title')}</h2>
        {last
          ? <p data-testid="backup-last">{t('last.value', { when: when(last.createdAt), size: size(last.size), kind: kind(last) })}</p>
          : <p data-testid="backup-last">{t('last.none')}</p>}
        <p className="text-muted">{daily ? t('schedule', { daily: retention.daily, weekly: retention.weekly }) : t('scheduleOff')} {t('folder', { directory })}</p>
        <Button onClick={onBackUp} loading={backUp.isPending}>{t('now')}</Button>
      </section>

      <section className="admin-panel" aria-labelledby="backup-files">
        <h2 id="backup-files">{t('files.title')}</h2>
        {backups.length === 0 ? <p>{t('files.none')}</p> : (
          <div className="admin-table-wrap">
            <table className="data-table admin-table">
              <thead>
                <tr><th>{t('files.taken')}</th><th>{t('files.kind')}</th><th>{t('files.size')}</th><th>{t('files.file')}</th></tr>
              </thead>
              <tbody>
                {backups.map((b) => (
                  <tr key={b.name}>
                    <td>{when(b.createdAt)}</td>
                    <td>{kind(b)}</td>
                    <td>{size(b.size)}</td>
                    <td>
                      {/* The token goes in a header, not in the link (issue 21.5): the click downloads through fetch. */}
                      <a href={backupHref(b.name)} download={b.name} aria-label={t('files.download', { name: b.name })}
                        onClick={(e) => { e.preventDefault(); downloadBackup(b.name).catch((error) => toast.error(errorText(error, t('failed')))); }}>{b.name}</a>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section className="admin-panel" aria-labelledby="backup-restore">
        <h2 id="backup-restore">{t('restore.title')}</h2>
        <p>{t('restore.explain')}</p>
        <form onSubmit={onRestore} className="backup-restore-form">
          <label htmlFor="backup-file">{t('restore.file')}</label>
          <input id="backup-file" ref={fileInput} type="file" accept=".posbak" onChange={(e) => { setFile(e.target.files?.[0] ?? null); restore.reset(); setRestored(null); }} />
          <Button type="submit" variant="danger" disabled={!file} loading={restore.isPending}>{t('restore.submit')}</Button>
        </form>
        {restore.isError && <Alert>{errorText(restore.error, t('failed'))}</Alert>}
        {restored && <Alert variant="success">{restored}</Alert>}
      </section>
    </div>
  );
}
