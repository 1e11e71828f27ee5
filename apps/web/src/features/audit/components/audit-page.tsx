import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/toast';
import { errorText } from '@/lib/form-errors';
import { downloadAuditCsv, listAudit, type AuditEntry, type AuditFilters } from '@/features/audit/api/audit-log';

const PAGE = 50;

/** What changed, in one line: "basePrice: 10 -> 12.5", or the details. */
function summary(e: AuditEntry): string {
  const before = (e.before ?? {}) as Record<string, unknown>;
  const after = (e.after ?? {}) as Record<string, unknown>;
  const keys = Object.keys(after).length ? Object.keys(after) : Object.keys(before);
  const changes = keys.map((k) => `${k}: ${JSON.stringify(before[k] ?? null)} → ${JSON.stringify(after[k] ?? null)}`);
  const details = e.details && typeof e.details === 'object' ? Object.entries(e.details as Record<string, unknown>).map(([k, v]) => `${k}: ${JSON.stringify(v)}`) : [];
  return [...changes, ...details].join('; ');
}

/**
 * The audit log (issue 21.4): who did what, where and when, with the approver of an approved
 * action; filters (who, what, store, from, to) and a CSV export of what the filters select.
 */
export function AuditPage() {
  const { t, i18n } = useTranslation('admin');
  const [draft, setDraft] = useState<AuditFilters>({});
  const [filters, setFilters] = useState<AuditFilters>({});
  const [offset, setOffset] = useState(0);
  const query = useQuery({ queryKey: ['audit', filters, offset], queryFn: () => listAudit(filters, { limit: PAGE, offset }) });
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setOffset(0);
    setFilters({ ...draft });
  };
  const field = (name: keyof AuditFilters, type = 'text') => (
    <Input label={t(`audit.filters.${name}`)} type={type} value={draft[name] ?? ''} onChange={(e) => setDraft((d) => ({ ...d, [name]: e.target.value }))} />
  );
  const when = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'medium' });
  const total = query.data?.total ?? 0;
  return (
    <section className="stack" aria-labelledby="audit-title">
      <h1 id="audit-title">{t('audit.title')}</h1>
      <form className="row audit-filters" onSubmit={apply} aria-label={t('audit.filters.label')}>
        {field('who')}{field('action')}{field('store')}{field('from', 'date')}{field('to', 'date')}
        <Button type="submit">{t('audit.filters.apply')}</Button>
        <Button type="button" variant="secondary" onClick={() => downloadAuditCsv(filters).catch((e) => toast.error(errorText(e)))}>{t('audit.export')}</Button>
      </form>
      {query.isError && <p role="alert">{errorText(query.error)}</p>}
      <table className="table" data-testid="audit-table">
        <thead>
          <tr>
            <th>{t('audit.columns.at')}</th><th>{t('audit.columns.action')}</th><th>{t('audit.columns.who')}</th>
            <th>{t('audit.columns.approver')}</th><th>{t('audit.columns.store')}</th><th>{t('audit.columns.what')}</th><th>{t('audit.columns.changes')}</th>
          </tr>
        </thead>
        <tbody>
          {(query.data?.list ?? []).map((e) => (
            <tr key={e.id} data-testid="audit-row">
              <td>{when.format(new Date(e.at))}</td>
              <td>{e.action}</td>
              <td>{e.actor?.name ?? ''}</td>
              <td>{e.approver?.name ?? ''}</td>
              <td>{e.store ?? ''}</td>
              <td>{e.entity ? `${e.entity} ${e.entityId ?? ''}` : ''}</td>
              <td className="audit-changes">{summary(e)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {query.isSuccess && total === 0 && <p>{t('audit.empty')}</p>}
      <div className="row">
        <Button variant="ghost" disabled={offset === 0} onClick={() => setOffset((o) => Math.max(0, o - PAGE))}>{t('audit.previous')}</Button>
        <span>{t('audit.range', { from: total ? offset + 1 : 0, to: Math.min(offset + PAGE, total), total })}</span>
        <Button variant="ghost" disabled={offset + PAGE >= total} onClick={() => setOffset((o) => o + PAGE)}>{t('audit.next')}</Button>
      </div>
    </section>
  );
}
