import { useEffect, useRef } from 'react';
import { quantityToString } from '@pos/domain/money';
import { useTranslation } from 'react-i18next';
import type { Order } from '@/features/catalogue-cache/types';
import { cartStore } from '@/features/cart/cart-store';
import { cartTotalsOf } from '@/features/cart/cart-totals';
import type { CartLine, CartState } from '@/features/cart/cart-types';
import { lineName } from '@/features/cart/components/cart-table';
import { getMoney } from '@/lib/money';
import { announce } from './announce';

const nameOf = (line: CartLine) => lineName(line);
const qtyOf = (line: CartLine) => quantityToString(line.quantity);

/** What changed between two carts, said in one sentence with the new total; '' when nothing a cashier hears changed. */
export function cartChange(before: CartState, after: CartState, say: (key: string, values?: Record<string, string>) => string, total: (s: CartState) => string): string {
  if (before.uuid !== after.uuid && after.added.length === 0) return ''; // a new sale: the sale's own message says it
  const was = new Map(before.added.map((l) => [l.key, l]));
  const now = new Map(after.added.map((l) => [l.key, l]));
  const sum = total(after);
  const added = after.added.find((l) => !was.has(l.key));
  if (added) return say('announce.added', { item: nameOf(added), qty: qtyOf(added), total: sum });
  const removed = before.added.find((l) => !now.has(l.key));
  if (removed) return after.added.length ? say('announce.removed', { item: nameOf(removed), total: sum }) : say('announce.emptied');
  const changed = after.added.find((l) => was.get(l.key)?.quantity !== l.quantity);
  if (changed) return say('announce.quantity', { item: nameOf(changed), qty: qtyOf(changed), total: sum });
  return total(before) !== sum ? say('announce.total', { total: sum }) : '';
}

/**
 * The till's status messages (issue 29.4): items added and removed, quantity and total changes,
 * and offline/online, read out by the live region. A completed sale is said by saleAnnouncement.
 */
export function useTillAnnouncements(): void {
  const { t } = useTranslation('sale');
  const tRef = useRef(t);
  tRef.current = t;
  useEffect(() => {
    const say = (key: string, values?: Record<string, string>) => tRef.current(key, values);
    const total = (s: CartState) => {
      const money = getMoney();
      return money.formatMinor(cartTotalsOf(s, money).minor.grandTotalCents);
    };
    let last = cartStore.get();
    const stop = cartStore.subscribe(() => {
      const next = cartStore.get();
      if (next.added === last.added && next.tax === last.tax && next.discount === last.discount && next.discountAmount === last.discountAmount && next.uuid === last.uuid) {
        last = next;
        return;
      }
      const text = cartChange(last, next, say, total);
      last = next;
      announce(text);
    });
    const offline = () => announce(say('announce.offline'), 'assertive');
    const online = () => announce(say('announce.online'));
    window.addEventListener('offline', offline);
    window.addEventListener('online', online);
    return () => {
      stop();
      window.removeEventListener('offline', offline);
      window.removeEventListener('online', online);
    };
  }, []);
}

/** A completed sale: "Payment accepted: $21.50. Change due $0.00". */
export function announceSale(order: Order, say: (key: string, values?: Record<string, string>) => string): void {
  const money = getMoney();
  const paid = money.formatWire(order.payments.reduce((s, p) => s + Number(p.total ?? 0), 0));
  const change = money.formatWire(order.payments.reduce((s, p) => s + Number(p.change ?? 0), 0));
  announce(say('announce.paid', { paid, change }));
}

/** Sync trouble (the unsent-sales counter calls it): said assertively when the server refuses one more sale. */
export function useAnnounceRejected(rejected: number): void {
  const { t } = useTranslation('sale');
  const before = useRef(rejected);
  useEffect(() => {
    if (rejected > before.current) announce(t('announce.rejected', { count: rejected }), 'assertive');
    before.current = rejected;
  }, [rejected, t]);
}
