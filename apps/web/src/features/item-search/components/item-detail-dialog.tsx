import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@pos/domain/format';
import { useMoney } from '@/lib/money';
import { mulPriceQty, parseQuantity, parseScaled, quantityToString, sumCents } from '@pos/domain/money';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { Tabs } from '@/components/ui/tabs';
import type { Product } from '@/features/catalogue-cache/types';
import { pricesOf, variantPriceOf } from '@/features/item-search/prices';
import { ITEM_HISTORY_PAGE, useIriLabel, useItemPurchases, useItemSales, type OrderProductRow, type PurchaseItemRow } from '@/features/item-search/api/item-history';

/** A wire amount in minor units of the store's currency (issue 19). */
type Minor = (v: number | string | null | undefined) => number;
const q = (v: number | string | null | undefined) => quantityToString(parseQuantity(v ?? 0));
const iriOf = (v: unknown): string | null => (typeof v === 'string' ? v : v && typeof v === 'object' && '@id' in v ? String((v as { '@id': string })['@id']) : null);

function OrderLabel({ order }: { order: OrderProductRow['order'] }) {
  const { t } = useTranslation('sale');
  const direct = typeof order === 'object' && order?.orderId != null ? String(order.orderId) : null;
  const { data } = useIriLabel(direct ? null : iriOf(order), 'orderId');
  return <>{t('order.number', { number: direct ?? data ?? '…' })}</>;
}

function VariantLabel({ variant }: { variant: OrderProductRow['variant'] }) {
  const direct = variant && typeof variant === 'object' ? variant.attributeValue ?? '' : null;
  const { data } = useIriLabel(direct !== null ? null : iriOf(variant), 'attributeValue');
  return <>{direct ?? data ?? ''}</>;
}

function PurchaseLabel({ purchase }: { purchase: PurchaseItemRow['purchase'] }) {
  const direct = purchase && typeof purchase === 'object' && purchase.purchaseNumber ? purchase.purchaseNumber : null;
  const { data } = useIriLabel(direct ? null : iriOf(purchase), 'purchaseNumber');
  return <>{direct ?? data ?? ''}</>;
}

function Pager({ page, total, onPage }: { page: number; total: number; onPage: (p: number) => void }) {
  const { t } = useTranslation('sale');
  const pages = Math.max(1, Math.ceil(total / ITEM_HISTORY_PAGE));
  return (
    <div className="row pager">
      <Button size="sm" variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>{t('pager.previous')}</Button>
      <span>{t('pager.page', { page, pages })}</span>
      <Button size="sm" variant="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>{t('pager.next')}</Button>
    </div>
  );
}

function SalesTab({ product, money, m }: { product: Product; money: (minor: number) => string; m: Minor }) {
  const { t } = useTranslation('sale');
  const tz = useMoney().timeZone;
  const [page, setPage] = useState(1);
  const { data, isLoading, isError } = useItemSales(product.id, page);
  if (isLoading) return <Spinner />;
  if (isError) return <p className="text-muted">{t('itemDetail.loadFailed')}</p>;
  const rows = data?.['hydra:member'] ?? [];
  return (
    <>
      <table className="data-table">
        <thead>
          <tr>
            <th>{t('itemDetail.orderNo')}</th><th>{t('itemDetail.variant')}</th><th>{t('itemDetail.orderedAt')}</th>
            <th className="num">{t('order.quantity')}</th><th className="num">{t('order.price')}</th><th className="num">{t('order.discount')}</th>
            <th className="num">{t('cart.taxes')}</th><th className="num">{t('order.total')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id}>
              <td><OrderLabel order={r.order} /></td>
              <td><VariantLabel variant={r.variant} /></td>
              <td>{formatDateTime(r.createdAt, tz)}</td>
              <td className="num">{q(r.quantity)}</td>
              <td className="num">{money(m(r.price))}</td>
              <td className="num">{money(m(r.discount))}</td>
              <td className="num">{money(m(r.taxesTotal))}</td>
              <td className="num">{money(sumCents([mulPriceQty(m(r.price), parseQuantity(r.quantity ?? 0)), -m(r.discount), m(r.taxesTotal)]))}</td>
            </tr>
          ))}
          {!rows.length && <tr><td colSpan={8} className="text-muted">{t('itemDetail.none')}</td></tr>}
        </tbody>
      </table>
      <Pager page={page} total={data?.['hydra:totalItems'] ?? rows.length} onPage={setPage} />
    </>
  );
}

function PurchasesTab({ product, money, m }: { product: Product; money: (minor: number) => string; m: Minor }) {
  const { t } = useTranslation('sale');
  const tz = useMoney().timeZone;
  const [page, setPage] = useState(1);
  const { data, isLoading, isError } = useItemPurchases(product.id, page);
  if (isLoading) return <Spinner />;
  if (isError) return <p className="text-muted">{t('itemDetail.loadFailed')}</p>;
  const rows = data?.['hydra:member'] ?? [];
  return (
    <>
      <table className="data-table">
        <thead>
          <tr>
            <th>{t('itemDetail.purchaseNo')}</th><th className="num">{t('itemDetail.quantityRequested')}</th><th className="num">{t('order.quantity')}</th>
            <th className="num">{t('order.price')}</th><th className="num">{t('order.total')}</th><th>{t('itemDetail.createdAt')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id}>
              <td><PurchaseLabel purchase={r.purchase} /></td>
              <td className="num">{r.quantityRequested == null ? '' : q(r.quantityRequested)}</td>
              <td className="num">{q(r.quantity)}</td>
              <td className="num">{money(m(r.purchasePrice))}</td>
              <td className="num">{money(mulPriceQty(m(r.purchasePrice), parseQuantity(r.quantity ?? 0)))}</td>
              <td>{formatDateTime(r.createdAt, tz)}</td>
            </tr>
          ))}
          {!rows.length && <tr><td colSpan={6} className="text-muted">{t('itemDetail.none')}</td></tr>}
        </tbody>
      </table>
      <Pager page={page} total={data?.['hydra:totalItems'] ?? rows.length} onPage={setPage} />
    </>
  );
}

/** Item detail (titled with the item's name): Item Information, Stores, Variants, Sales, Purchases. */
export function ItemDetailDialog({ product, onClose }: { product: Product | null; onClose: () => void; locale?: string }) {
  const currency = useMoney();
  const { t } = useTranslation('sale');
  const [tab, setTab] = useState('info');
  if (!product) return null;
  // Minor units of the store's currency (KWD 1.275, JPY 1,075), price rules on the store's clock (issue 19).
  const money = (minor: number) => currency.formatMinor(minor);
  const m: Minor = (v) => parseScaled(v ?? 0, currency.digits);
  const priceOpts = { digits: currency.digits, timeZone: currency.timeZone };
  const names = (list?: Array<{ name: string }> | null) => (list ?? []).map((x) => x.name).join(', ');
  const info: Array<[string, string]> = [
    [t('itemDetail.name'), product.name],
    [t('itemDetail.barcode'), product.barcode ?? ''],
    [t('itemDetail.salePrice'), `${money(pricesOf(product, priceOpts).effective)}${product.saleUnit ? ` / ${product.saleUnit}` : ''}`],
    [t('itemDetail.purchasePrice'), `${money(m(product.cost))}${product.purchaseUnit ? ` / ${product.purchaseUnit}` : ''}`],
    [t('itemDetail.taxes'), (product.taxes ?? []).map((x) => `${x.name} ${x.rate}%`).join(', ')],
    [t('itemDetail.department'), product.department?.name ?? ''],
    [t('itemDetail.brands'), names(product.brands)],
    [t('itemDetail.categories'), names(product.categories)],
    [t('itemDetail.suppliers'), names(product.suppliers)],
    [t('itemDetail.terminals'), (product.terminals ?? []).map((x) => x.code).filter(Boolean).join(', ')],
  ];
  const items = [
    {
      id: 'info',
      label: t('itemDetail.info'),
      content: (
        <dl className="detail-list">
          {info.map(([k, v]) => (
            <div key={k}><dt>{k}</dt><dd>{v || '-'}</dd></div>
          ))}
        </dl>
      ),
    },
    {
      id: 'stores',
      label: t('itemDetail.stores'),
      content: (
        <table className="data-table">
          <thead><tr><th>{t('itemDetail.store')}</th><th className="num">{t('itemDetail.stock')}</th><th>{t('itemDetail.location')}</th><th className="num">{t('itemDetail.reOrderLevel')}</th></tr></thead>
          <tbody>
            {(product.stores ?? []).map((s, i) => (
              <tr key={s.id ?? i}><td>{s.store?.name}</td><td className="num">{q(s.quantity)}</td><td>{s.location}</td><td className="num">{s.reOrderLevel == null ? '' : q(s.reOrderLevel)}</td></tr>
            ))}
          </tbody>
        </table>
      ),
    },
    {
      id: 'variants',
      label: t('itemDetail.variants'),
      content: (
        <table className="data-table">
          <thead><tr><th>{t('itemDetail.name')}</th><th>{t('itemDetail.barcode')}</th><th className="num">{t('order.price')}</th><th className="num">{t('itemDetail.stockRemaining')}</th></tr></thead>
          <tbody>
            {(product.variants ?? []).map((v) => (
              <tr key={v.id}><td>{v.attributeValue ?? v.name}</td><td>{v.barcode}</td><td className="num">{money(variantPriceOf(product, v, priceOpts))}</td><td className="num">{q(v.quantity)}</td></tr>
            ))}
          </tbody>
        </table>
      ),
    },
    { id: 'sales', label: t('itemDetail.sales'), content: <SalesTab product={product} money={money} m={m} /> },
    { id: 'purchases', label: t('itemDetail.purchases'), content: <PurchasesTab product={product} money={money} m={m} /> },
  ];
  return (
    <Dialog open onClose={onClose} title={product.name} size="xl">
      <Tabs items={items} value={tab} onChange={setTab} label={product.name} />
    </Dialog>
  );
}
