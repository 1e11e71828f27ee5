import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { downloadFile } from '@/lib/api-client';
import { errorText } from '@/lib/form-errors';
import { apiGet } from '@/features/list-table/api/http';
import { when } from '../lib/forms.ts';
import type { ProductRef, Who } from '../lib/types.ts';
import { StoreFilter, useStockStores, type PickerSlot } from './stock-common.tsx';
import { StockTabs } from './stock-lists.tsx';

/** The document of a ledger row: a sale or return, a purchase, or a stock document (linked to its page). */
export interface MovementDocument { kind: 'order' | 'purchase' | 'transfer' | 'count' | 'adjustment' | (string & {}); id: number; number: number | string | null }

/** One ledger row as GET /api/stock/movements answers it (newest first, with the running balance per store). */
export interface Movement {
  id: number;
  at: string;
  store: { id: number; name: string };
  reason: string;
  quantity: number;
  balance: number;
  cost: number | string | null;
  order: { id: number; number: number | null } | null;
  purchase: { id: number; purchaseNumber: string | null } | null;
  /** Absent from an older server: the order / purchase fields still name those. */
  document?: MovementDocument | null;
  user: Who | null;
}

/** The stock documents' pages (app/routes/admin/admin-stock.tsx) and their names (`<kind>s.number`). */
const STOCK_DOCS: Record<string, string> = { transfer: 'transfers', count: 'counts', adjustment: 'adjustments' };

const PAGE = 50;
/** Reasons the ledger writes; anything else (a future one) shows as written. */
const REASONS = ['sale', 'return', 'delete', 'restore', 'purchase', 'adjustment', 'import', 'opening', 'transfer_out', 'transfer_in', 'count',
  'damage', 'theft', 'expiry', 'own_use', 'correction', 'found'];

/**
 * /admin/stock/movements (issue 25.6): every movement of one product — sale, return, purchase,
 * transfer, count, adjustment with its reason — who, when, the document and the balance after it.
 */
export function MovementsPage({ picker }: { picker: PickerSlot }) {
  const { t, i18n } = useTranslation('stock');
  const stores = useStockStores();
  const [product, setProduct] = useState<ProductRef | null>(null);
  const [store, setStore] = useState('');
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: ['stock', 'movements', product?.id, store, page],
    queryFn: () => apiGet<{ list: Movement[]; total: number }>('/stock/movements', { product: product!.id, store: store || undefined, page, itemsPerPage: PAGE }),
    enabled: product !== null,
  });
  const tz = (id: number) => stores.find((s) => s.id === id)?.timeZone ?? undefined;
  const reason = (r: string) => (REASONS.includes(r) ? t(`movements.reasons.${r}`) : r);
  const doc = (m: Movement) => {
    const d = m.document;
    const page = d ? STOCK_DOCS[d.kind] : undefined;
    if (d && page) return <Link to={`/admin/stock/${page}/${d.id}`}>{t(`${page}.number`, { number: d.number ?? d.id })}</Link>;
    return m.order ? t('movements.order', { number: m.order.number ?? m.order.id }) : m.purchase ? t('movements.purchase', { number: m.purchase.purchaseNumber ?? m.purchase.id }) : '';
  };
  const download = () => downloadFile('/stock/movements', `stock-movements-${product!.id}.csv`, { product: product!.id, store: store || undefined, format: 'csv' })
    .catch((e: unknown) => toast.error(errorText(e)));
  const list = query.data?.list ?? [];
  const pages = Math.max(1, Math.ceil((query.data?.total ?? 0) / PAGE));
  return (
    <div className="stock-page">
      <h1>{t('movements.title')}</h1>
      <StockTabs />
      <div className="stock-toolbar">
        {picker((item) => { setProduct(item.product); setPage(1); })}
        <StoreFilter value={store} onChange={(v) => { setStore(v); setPage(1); }} />
      </div>
      {!product ? (
        <p className="muted">{t('movements.pick')}</p>
      ) : (
        <>
          <div className="stock-actions">
            <h2>{product.name}{product.sku ? ` · ${product.sku}` : ''}</h2>
            <Button type="button" variant="secondary" onClick={() => { void download(); }}>{t('movements.download')}</Button>
          </div>
          {query.isPending ? <Spinner /> : query.isError ? <p role="alert">{errorText(query.error)}</p> : list.length === 0 ? (
            <p className="muted">{t('movements.none')}</p>
          ) : (
            <div className="table-scroll">
              <table className="table table-compact stock-table" aria-label={t('movements.title')}>
                <thead>
                  <tr>
                    {['date', 'store', 'reason', 'document', 'by', 'quantity', 'balance'].map((c) => (
                      <th key={c} scope="col" className={c === 'quantity' || c === 'balance' ? 'num' : undefined}>{t(`movements.columns.${c}`)}</th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {list.map((m) => (
                    <tr key={m.id}>
                      <td>{when(m.at, tz(m.store.id), i18n.language)}</td>
                      <td>{m.store.name}</td>
                      <td>{reason(m.reason)}</td>
                      <td>{doc(m)}</td>
                      <td>{m.user?.displayName || m.user?.username || ''}</td>
                      <td className="num" dir="ltr">{m.quantity > 0 ? `+${m.quantity}` : m.quantity}</td>
                      <td className="num">{m.balance}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {pages > 1 && (
            <div className="stock-actions">
              <Button variant="secondary" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>{t('movements.newer')}</Button>
              <span className="muted">{t('movements.pageOf', { page, pages })}</span>
              <Button variant="secondary" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>{t('movements.older')}</Button>
            </div>
          )}
        </>
      )}
    </div>
  );
}
