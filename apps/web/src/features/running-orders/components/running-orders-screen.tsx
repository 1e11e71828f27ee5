import { useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useVirtualizer } from '@tanstack/react-virtual';
import { formatDateTime } from '@pos/domain/format';
import { useMoney } from '@/lib/money';
import { minorToString, parseScaled, sumCents } from '@pos/domain/money';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Spinner } from '@/components/ui/spinner';
import type { Order } from '@/features/catalogue-cache/types';
import { useRunningOrders, useStoreTerminals } from '@/features/running-orders/api/running-orders';

export const RUNNING_ROW_HEIGHT = 40;

/** An order's amount in minor units of the store's currency (issue 19: `digits` USD 2, JPY 0, KWD 3). */
const amountOf = (o: Order, digits: number) => {
  const m = (v: number | string) => parseScaled(v, digits);
  return o.total !== null && o.total !== undefined ? m(o.grandTotal ?? o.total) : sumCents((o.payments ?? []).map((p) => m(p.total)));
};
const customerOf = (o: Order) => (typeof o.customer === 'string' ? o.customer : o.customer?.name ?? o.customerName ?? '');

/** Text search over order number, store, terminal, customer and amount (as the reference). */
export function matchesRunningOrder(o: Order, q: string, digits = 2): boolean {
  const needle = q.trim().toLowerCase();
  if (!needle) return true;
  const hay = [o.orderId ?? o.id, o.store?.name, o.terminal?.code, customerOf(o), minorToString(amountOf(o, digits), digits)].join(' ').toLowerCase();
  return hay.includes(needle);
}

export interface RunningOrdersScreenProps {
  storeId: number;
  selectedId: number | null;
  onSelect: (order: Order) => void;
  /** The cart and the payment panel of the selected order (composed by the route). */
  cart: ReactNode;
  payment: ReactNode;
  locale?: string;
}

/**
 * Payment mode: the pending orders of the store (polled every 5 s), a terminal filter and a search
 * box over a virtualised list (40 px rows: Order#, Terminal, Customer, Amount); the selected order's
 * details, cart and payment panel beside it.
 */
export function RunningOrdersScreen({ storeId, selectedId, onSelect, cart, payment }: RunningOrdersScreenProps) {
  const currency = useMoney();
  const { t } = useTranslation('sale');
  const [terminalId, setTerminalId] = useState<number | null>(null);
  const [q, setQ] = useState('');
  const { data, isLoading, isError } = useRunningOrders(storeId, terminalId);
  const terminals = useStoreTerminals(storeId);
  const orders = useMemo(() => (data?.['hydra:member'] ?? []).filter((o) => matchesRunningOrder(o, q, currency.digits)), [data, q, currency.digits]);
  const selected = (data?.['hydra:member'] ?? []).find((o) => o.id === selectedId) ?? null;
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: orders.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => RUNNING_ROW_HEIGHT,
    overscan: 5,
    initialRect: { width: 400, height: 600 },
  });
  const money = (minor: number) => currency.formatMinor(minor);

  return (
    <div className="running-orders">
      <section className="running-orders-list" aria-label={t('running.title')}>
        <div className="row">
          <Input label={t('running.search')} value={q} onChange={(e) => setQ(e.target.value)} containerClassName="grow" />
          <Select
            label={t('running.terminal')}
            value={terminalId === null ? '' : String(terminalId)}
            placeholder={t('running.allTerminals')}
            onChange={(e) => setTerminalId(e.target.value ? Number(e.target.value) : null)}
            options={(terminals.data?.['hydra:member'] ?? []).map((x) => ({ value: String(x.id), label: x.code }))}
          />
        </div>
        <div className="running-orders-head" role="row">
          <span>{t('running.order')}</span><span>{t('running.terminal')}</span><span>{t('running.customer')}</span><span className="num">{t('running.amount')}</span>
        </div>
        {isLoading ? <Spinner /> : isError ? <p className="text-muted">{t('running.loadFailed')}</p> : null}
        <div ref={scroller} className="running-orders-scroller" role="listbox" aria-label={t('running.title')}>
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((row) => {
              const o = orders[row.index];
              return (
                <div
                  key={o.id}
                  role="option"
                  aria-label={`${t('order.number', { number: o.orderId ?? o.id })} ${o.terminal?.code ?? ''} ${customerOf(o)} ${money(amountOf(o, currency.digits))}`.trim()}
                  aria-selected={o.id === selectedId}
                  className={o.id === selectedId ? 'running-order running-order-active' : 'running-order'}
                  style={{ position: 'absolute', top: 0, width: '100%', height: RUNNING_ROW_HEIGHT, transform: `translateY(${row.start}px)` }}
                  onClick={() => onSelect(o)}
                >
                  <span>{o.orderId ?? o.id}</span>
                  <span>{o.terminal?.code}</span>
                  <span>{customerOf(o)}</span>
                  <span className="num">{money(amountOf(o, currency.digits))}</span>
                </div>
              );
            })}
          </div>
          {!isLoading && !orders.length && <p className="text-muted running-orders-empty">{t('running.none')}</p>}
        </div>
      </section>
      <section className="running-orders-detail" aria-label={t('running.detail')}>
        {selected ? (
          <dl className="detail-list detail-list-inline">
            <div><dt>{t('running.order')}</dt><dd>{selected.orderId ?? selected.id}</dd></div>
            <div><dt>{t('running.createdAt')}</dt><dd>{formatDateTime(selected.createdAt, currency.timeZone)}</dd></div>
            <div><dt>{t('running.store')}</dt><dd>{selected.store?.name}</dd></div>
            <div><dt>{t('running.terminal')}</dt><dd>{selected.terminal?.code}</dd></div>
            <div><dt>{t('running.user')}</dt><dd>{selected.user?.displayName}</dd></div>
          </dl>
        ) : (
          <p className="text-muted">{t('running.pick')}</p>
        )}
        <div className="running-orders-cart">{cart}</div>
      </section>
      <aside className="running-orders-payment">{payment}</aside>
    </div>
  );
}
