import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useSession } from '@/lib/session';
import { getLowStock } from '@/features/reorder/api/reorder';

/** The dashboard's low-stock tile (issue 25.4): how many products of the user's first store are at or below their re-order level, and the first few. */
export function LowStockTile() {
  const { t, i18n } = useTranslation('admin');
  const store = useSession().user?.stores[0] ?? null;
  const query = useQuery({ queryKey: ['low-stock', store?.id], queryFn: () => getLowStock(store!.id), enabled: store != null });
  const qty = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 3 });
  if (!store || !query.data) return null;
  return (
    <section className="card stack" aria-labelledby="low-stock-title" data-testid="low-stock-tile">
      <h2 id="low-stock-title">{t('reorder.lowStock', { count: query.data.count, store: store.name })}</h2>
      <ul>
        {query.data.products.map((p) => <li key={p.id}>{t('reorder.lowLine', { name: p.name, stock: qty.format(p.stock), level: qty.format(p.level) })}</li>)}
      </ul>
      <Link to="/admin/stock/reorder">{t('reorder.title')}</Link>
    </section>
  );
}
