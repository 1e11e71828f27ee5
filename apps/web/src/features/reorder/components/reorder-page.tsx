import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from '@/components/ui/button';
import { Select } from '@/components/ui/select';
import { toast } from '@/components/ui/toast';
import { errorText } from '@/lib/form-errors';
import { useMoney } from '@/lib/money';
import { useSession } from '@/lib/session';
import { createDraftOrders, getToOrder } from '@/features/reorder/api/reorder';

/**
 * /admin/stock/reorder (issue 25.4): what is at or below its re-order level in one of the user's
 * stores, grouped by supplier, with the suggested quantity and its value at cost; one button makes
 * the draft purchase orders (one per supplier) in one step. Products without a supplier are listed
 * but not ordered (the server leaves them out).
 */
export function ReorderPage() {
  const { t, i18n } = useTranslation('admin');
  const { user } = useSession();
  const stores = user?.stores ?? [];
  const [storeId, setStoreId] = useState<number | null>(stores[0]?.id ?? null);
  const store = stores.find((s) => s.id === storeId) ?? null;
  const money = useMoney(store);
  const qty = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 3 });
  const client = useQueryClient();
  const query = useQuery({ queryKey: ['reorder', storeId], queryFn: () => getToOrder(storeId!), enabled: storeId != null });
  const create = useMutation({
    mutationFn: () => createDraftOrders(storeId!),
    onSuccess: (r) => {
      toast.success(t('reorder.created', { count: r.purchaseOrders.length }));
      void client.invalidateQueries({ queryKey: ['reorder'] });
    },
    onError: (e) => toast.error(errorText(e)),
  });
  const amount = (v: number | null) => (v == null ? '' : money.formatMinor(money.minor(v)));
  const groups = query.data?.suppliers ?? [];
  const orderable = groups.some((g) => g.supplier != null);
  return (
    <section className="stack" aria-labelledby="reorder-title">
      <h1 id="reorder-title">{t('reorder.title')}</h1>
      <div className="row">
        <Select label={t('reorder.store')} value={storeId ?? ''} options={stores.map((s) => ({ value: String(s.id), label: s.name ?? String(s.id) }))}
          onChange={(e) => setStoreId(Number(e.target.value))} />
        <Button onClick={() => create.mutate()} disabled={!orderable || create.isPending}>{t('reorder.createOrders')}</Button>
      </div>
      {query.isError && <p role="alert">{errorText(query.error)}</p>}
      {query.isSuccess && groups.length === 0 && <p>{t('reorder.nothing')}</p>}
      {groups.map((g) => (
        <section key={g.supplier?.id ?? 'none'} className="stack" aria-label={g.supplier?.name ?? t('reorder.noSupplier')} data-testid="reorder-group">
          <h2>{g.supplier?.name ?? t('reorder.noSupplier')} {g.value != null && <span className="muted">{amount(g.value)}</span>}</h2>
          <table className="table">
            <thead>
              <tr>
                <th>{t('reorder.columns.product')}</th><th className="num">{t('reorder.columns.stock')}</th><th className="num">{t('reorder.columns.level')}</th>
                <th className="num">{t('reorder.columns.suggested')}</th><th className="num">{t('reorder.columns.cost')}</th><th className="num">{t('reorder.columns.value')}</th>
              </tr>
            </thead>
            <tbody>
              {g.lines.map((l) => (
                <tr key={l.product.id}>
                  <td>{l.product.name}</td><td className="num">{qty.format(l.stock)}</td><td className="num">{qty.format(l.level)}</td>
                  <td className="num">{qty.format(l.suggested)}</td><td className="num">{amount(l.cost)}</td><td className="num">{amount(l.value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </section>
  );
}
