import { useCartTotals } from '@/features/cart/use-cart-totals';
import { memo, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { getMoney, useMoney } from '@/lib/money';
import { MoneyInput } from '@/components/ui/money-input';
import { minorToString, quantityToString, tryParseScaled } from '@pos/domain/money';
import { minorToCents } from '@pos/domain/format';
import { Checkbox } from '@/components/ui/checkbox';
import { confirm } from '@/components/ui/confirm-dialog';
import { NumberInput } from '@/components/ui/number-input';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { checkState, removeLine, setLineDiscount, setLineQuantity, toggleAllChecked, toggleChecked } from '@/features/cart/cart-logic';
import { cartStore, tryUpdateCart, updateCart, useCart } from '@/features/cart/cart-store';
import { lineDiscountMinor, linePriceMinor } from '@/features/cart/cart-totals';
import type { CartField, CartLine } from '@/features/cart/cart-types';
import { useStock } from '@/features/cart/api/get-stock';
import { CART_FOCUS_EVENT } from './cart-focus';
import { lineName, removeQuestion } from './line-text';

function StockCell({ line, storeId }: { line: CartLine; storeId: number | null }) {
  const { t } = useTranslation('sale');
  const enabled = !!line.item.manageInventory && storeId !== null;
  const { data, isLoading, isError } = useStock({ itemId: line.item.id, variantId: line.variant?.id ?? null, storeId: storeId ?? 0 }, enabled, line.quantity);
  if (!line.item.manageInventory) return <span className="text-muted">-</span>;
  if (isLoading) return <Spinner size="sm" label={t('cart.stockLoading')} />;
  if (isError || !data) return <span className="text-muted">?</span>;
  const qty = tryParseScaled(data.quantity ?? 0, 3) ?? 0;
  return (
    <span className={qty <= 0 ? 'stock stock-warning' : 'stock'} data-testid="stock">
      {quantityToString(qty)}
    </span>
  );
}

interface EditCellProps {
  value: string;
  label: string;
  active: boolean;
  disabled?: boolean;
  allowNegative?: boolean;
  /** An amount in the store's currency (its decimals and separator), not a quantity. */
  money?: boolean;
  onCommit: (text: string) => void;
  onFocus: () => void;
  inputRef?: (node: HTMLInputElement | null) => void;
}

/** An inline number cell: edits locally, commits on Enter or blur (so a refused value snaps back). */
function EditCell({ value, label, active, disabled, allowNegative, money, onCommit, onFocus, inputRef }: EditCellProps) {
  const [text, setText] = useState(value);
  const [editing, setEditing] = useState(false);
  // Escape cancels: the blur that follows must not commit.
  const cancelled = useRef(false);
  useEffect(() => {
    if (!editing) setText(value);
  }, [value, editing]);
  const Input = money ? MoneyInput : NumberInput;
  return (
    <Input
      aria-label={label}
      className={active ? 'cart-input cart-input-active' : 'cart-input'}
      value={editing ? text : value}
      disabled={disabled}
      allowNegative={allowNegative}
      ref={inputRef}
      onFocus={() => {
        cancelled.current = false;
        setEditing(true);
        setText(value);
        onFocus();
      }}
      onValueChange={(t) => setText(t)}
      onBlur={() => {
        setEditing(false);
        if (!cancelled.current && text !== value) onCommit(text);
        cancelled.current = false;
      }}
      onKeyDown={(e: KeyboardEvent<HTMLInputElement>) => {
        if (e.key === 'Enter' && !e.ctrlKey) {
          e.preventDefault();
          e.currentTarget.blur(); // commits once, in onBlur
        } else if (e.key === 'Escape') {
          cancelled.current = true;
          e.currentTarget.blur();
        }
      }}
    />
  );
}

interface RowHandlers {
  activate: (index: number, f: CartField) => void;
  commitQuantity: (index: number, text: string) => void;
  commitDiscount: (index: number, text: string) => void;
  toggle: (index: number) => void;
  remove: (index: number) => Promise<void>;
  inputRef: (key: string, node: HTMLInputElement | null) => void;
}

interface CartRowProps {
  line: CartLine;
  index: number;
  /** The active field when this is the selected line, else null. */
  activeField: CartField | null;
  /** The line's discount in minor units of the store's currency (KWD 0.125 keeps its third digit). */
  discountMinor: number;
  /** The line's taxes and total in minor units of the store's currency (exact for KWD). */
  taxesMinor: number;
  totalMinor: number;
  storeId: number | null;
  handlers: RowHandlers;
}

/**
 * One cart line. Memoised on plain values: a scan adds a row without rendering the others again
 * (a 40-line cart re-rendered per scan cost more than the 50 ms scan budget on a small machine).
 */
const CartRow = memo(function CartRow({ line, index, activeField, discountMinor, taxesMinor, totalMinor, storeId, handlers }: CartRowProps) {
  const currency = useMoney();
  const { t } = useTranslation('sale');
  const active = activeField !== null;
  return (
    <tr className={active ? 'cart-row cart-row-active' : 'cart-row'} aria-selected={active} data-testid="cart-row">
      <td className="cart-check">
        <Checkbox aria-label={t('cart.selectLine', { item: lineName(line) })} checked={line.checked} onChange={() => handlers.toggle(index)} />
      </td>
      <td className="cart-item">
        <div className="cart-item-name">{line.item.name}</div>
        {line.variant?.attributeValue && <div className="cart-item-variant text-muted">{line.variant.attributeValue}</div>}
      </td>
      <td><StockCell line={line} storeId={storeId} /></td>
      <td className="cart-qty">
        <EditCell
          label={t('cart.qtyOf', { item: lineName(line) })}
          value={quantityToString(line.quantity)}
          active={activeField === 'quantity'}
          allowNegative
          disabled={line.quantity < 0}
          onFocus={() => handlers.activate(index, 'quantity')}
          onCommit={(text) => handlers.commitQuantity(index, text)}
          inputRef={(node) => handlers.inputRef(`${line.key}:quantity`, node)}
        />
      </td>
      <td className="cart-disc">
        <EditCell
          label={t('cart.discOf', { item: lineName(line) })}
          value={currency.inputTextMinor(discountMinor)}
          money
          active={activeField === 'discount'}
          disabled={line.quantity < 0}
          onFocus={() => handlers.activate(index, 'discount')}
          onCommit={(text) => handlers.commitDiscount(index, text)}
          inputRef={(node) => handlers.inputRef(`${line.key}:discount`, node)}
        />
      </td>
      <td className="num">{currency.formatMinor(taxesMinor)}</td>
      <td className="cart-rate">
        <input className="input cart-input" aria-label={t('cart.rateOf', { item: lineName(line) })} value={currency.inputTextMinor(linePriceMinor(line, currency.currency))} disabled readOnly />
      </td>
      <td className="num cart-line-total">{currency.formatMinor(totalMinor)}</td>
      <td>
        <button type="button" className="btn btn-ghost btn-sm" aria-label={t('cart.removeLine', { item: lineName(line) })} onClick={() => void handlers.remove(index)}>
          ×
        </button>
      </td>
    </tr>
  );
});

export interface CartTableProps {
  storeId: number | null;
  /** Locale for money display. */
  locale?: string;
}

/**
 * The cart (spec 2.5): Item, Stock, QTY, Disc., Taxes, Rate, Total; select-all with a partial
 * state; a footer with the item count, the total quantity and the total. Quantity and discount are
 * edited in place; the rate is shown but disabled.
 */
export function CartTable({ storeId }: CartTableProps) {
  const currency = useMoney();
  const { t } = useTranslation('sale');
  const lines = useCart((s) => s.added);
  const selected = useCart((s) => s.selected);
  const field = useCart((s) => s.cartItemType);
  const totals = useCartTotals();
  const inputs = useRef(new Map<string, HTMLInputElement | null>());
  const all = checkState(lines);

  useEffect(() => {
    const focus = () => {
      const { added, selected: index, cartItemType } = cartStore.get();
      const line = added[index];
      if (!line) return;
      inputs.current.get(`${line.key}:${cartItemType}`)?.focus();
    };
    window.addEventListener(CART_FOCUS_EVENT, focus);
    return () => window.removeEventListener(CART_FOCUS_EVENT, focus);
  }, []);

  // Stable handlers (they read the cart when called), so an unchanged row is not rendered again.
  const handlers = useMemo<RowHandlers>(() => ({
    activate: (index, f) => updateCart((s) => ({ ...s, selected: index, cartItemType: f })),
    commitQuantity: (index, text) => {
      const qty = tryParseScaled(text, 3);
      const error = tryUpdateCart((s) => setLineQuantity(s, index, qty ?? 0));
      if (error) toast.error(t('messages.quantityBelowOne'));
    },
    commitDiscount: (index, text) => {
      const money = getMoney();
      const minor = money.parseInputMinor(text);
      if (minor === null) return;
      updateCart((s) => setLineDiscount(s, index, minorToCents(minor, money.currency), minorToString(minor, money.digits)));
    },
    toggle: (index) => updateCart((s) => toggleChecked(s, index)),
    remove: async (index) => {
      const line = cartStore.get().added[index];
      if (!line) return;
      if (await confirm(removeQuestion(t, [line]), { danger: true })) updateCart((s) => removeLine(s, index));
    },
    inputRef: (key, node) => inputs.current.set(key, node),
  }), [t]);

  return (
    <div className="cart-table-wrap">
      <table className="cart-table" aria-label={t('cart.title')}>
        <thead>
          <tr>
            <th className="cart-check">
              <Checkbox
                aria-label={t('cart.selectAll')}
                checked={all === 'all'}
                indeterminate={all === 'some'}
                disabled={lines.length === 0}
                onChange={() => updateCart(toggleAllChecked)}
              />
            </th>
            <th>{t('cart.item')}</th>
            <th>{t('cart.stock')}</th>
            <th>{t('cart.qty')}</th>
            <th>{t('cart.disc')}</th>
            <th>{t('cart.taxes')}</th>
            <th>{t('cart.rate')}</th>
            <th className="num">{t('cart.total')}</th>
            <th><span className="visually-hidden">{t('cart.actions')}</span></th>
          </tr>
        </thead>
        <tbody>
          {lines.length === 0 && (
            <tr>
              <td colSpan={9} className="cart-empty text-muted">{t('cart.empty')}</td>
            </tr>
          )}
          {lines.map((line, index) => {
            const exact = totals.minor.lines[index];
            const active = index === selected;
            return (
              <CartRow
                key={line.key}
                line={line}
                index={index}
                activeField={active ? field : null}
                discountMinor={Math.abs(exact?.discountCents ?? lineDiscountMinor(line, currency.currency))}
                taxesMinor={exact?.taxesTotalCents ?? 0}
                totalMinor={exact?.totalCents ?? 0}
                storeId={storeId}
                handlers={handlers}
              />
            );
          })}
        </tbody>
        <tfoot>
          <tr>
            <td colSpan={3} data-testid="cart-count">{t('cart.itemCount', { count: lines.length })}</td>
            <td data-testid="cart-quantity">{quantityToString(totals.totalQtyMilli)}</td>
            <td colSpan={3} />
            <td className="num" data-testid="cart-footer-total">{currency.formatMinor(totals.minor.subTotalCents)}</td>
            <td />
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

export { lineName };
