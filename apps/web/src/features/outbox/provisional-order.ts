/**
 * The receipt of a sale that is still in the outbox: the order as the server will store it,
 * computed from the queued body with the same domain maths the server runs (`@pos/domain/tax`
 * `priceOrder` in the store's tax mode and currency's minor units, issue 19), without an order
 * number (assigned on upload) and with the local reference instead.
 */
import { resolveOrderDiscount } from '@pos/domain/cart';
import { currencyDigits } from '@pos/domain/currency';
import { minorToDecimal, parseMinor, parseQuantity, parseRate, rateToDecimal } from '@pos/domain/money';
import { priceOrder, taxModeOf } from '@pos/domain/tax';
import { cashRounding } from '@pos/domain/tender';
import { DEFAULT_MONEY_SETTINGS, type MoneySettings } from '@/lib/money';
import type { Order } from '@/features/catalogue-cache/types';
import type { SaleBody } from '@/lib/sale-body';

export interface ProvisionalContext {
  localRef: string;
  createdAt: string;
  store?: { id?: number; name?: string; currency?: string | null } | null;
  /** The store's money settings (currency, tax mode, cash rounding); default the server's defaults. */
  settings?: MoneySettings;
  terminal?: { id?: number; code?: string } | null;
  user?: { id?: number; displayName?: string } | null;
  /** The cart's customer (the body only carries its id). */
  customerName?: string | null;
}

export type ProvisionalOrder = Order & { offline: true; localRef: string };

export function provisionalOrder(body: SaleBody, ctx: ProvisionalContext): ProvisionalOrder {
  const settings = ctx.settings ?? DEFAULT_MONEY_SETTINGS;
  const digits = currencyDigits(settings.currency);
  const m = (v: number | string | null | undefined) => parseMinor(v ?? 0, digits);
  const d = (minor: number) => minorToDecimal(minor, digits);
  const totals = priceOrder({
    lines: body.items.map((i) => {
      const taxed = i.taxIncluded ?? true;
      return {
        priceCents: m(i.price), qtyMilli: parseQuantity(i.quantity), discountCents: m(i.discount), taxIncluded: taxed,
        taxRates: taxed ? i.taxes.map((t) => parseRate(t.rate)) : [], taxKeys: taxed ? i.taxes.map((t) => t.id) : [],
      };
    }),
    orderTaxRate: body.tax ? parseRate(body.tax.rate) : null,
    discount: resolveOrderDiscount({ discount: body.discount, discountAmount: body.discountAmount ?? undefined, discountRateType: body.discountRateType }, digits),
    adjustmentCents: m(body.adjustment),
    mode: taxModeOf(settings),
  });
  // The store's cash rounding of the cash part, as the server applies it (sale-payments.ts).
  const isCash = (p: SaleBody['payments'][number]) => p.tendered !== undefined;
  const exact = body.payments.filter((p) => !isCash(p)).reduce((x, p) => x + m(p.received), 0);
  const rounding = body.payments.some(isCash) && settings.cashRoundingStep > 0 && totals.adjustmentCents === 0
    ? cashRounding(totals.grandTotalCents - exact, settings.cashRoundingStep) : 0;
  return {
    id: 0,
    orderId: null,
    offline: true,
    localRef: ctx.localRef,
    createdAt: ctx.createdAt,
    status: body.isSuspended ? 'On Hold' : body.status,
    isSuspended: body.isSuspended,
    items: body.items.map((i, k) => ({
      product: { id: i.item.id, name: i.item.name, basePrice: i.price },
      variant: i.variant ? { id: i.variant.id, attributeValue: i.variant.attributeValue } : null,
      quantity: i.quantity,
      price: i.price,
      discount: d(totals.lines[k].discountCents),
      taxesTotal: d(totals.lines[k].taxesTotalCents),
      taxes: i.taxes.map((t) => ({ id: t.id, name: t.name, rate: t.rate })),
    })),
    discount: totals.discountTotalCents ? { amount: d(totals.discountTotalCents) } : null,
    tax: totals.orderTaxCents ? { amount: d(totals.orderTaxCents), rate: body.tax?.rate ?? null } : null,
    itemTaxes: d(totals.itemTaxesCents),
    subTotal: d(totals.subTotalCents),
    adjustment: d(totals.adjustmentCents),
    total: d(totals.totalCents),
    rounding: d(rounding),
    taxBreakdown: totals.taxBreakdown.map((r) => {
      const named = r.key === 'order' ? body.tax : body.items.flatMap((i) => i.taxes).find((t) => t.id === r.key);
      return { rate: rateToDecimal(r.rate), name: named?.name ?? null, net: d(r.netCents), tax: d(r.taxCents), gross: d(r.grossCents) };
    }),
    payments: body.payments.map((p) => ({ total: p.total, received: p.received, due: p.due, tendered: p.tendered, change: p.change, type: { id: p.type.id, name: p.type.name, type: p.type.type } })),
    notes: body.notes,
    customer: ctx.customerName ?? body.customer ?? null,
    store: ctx.store ?? { id: body.store },
    terminal: ctx.terminal ?? { id: body.terminal },
    user: ctx.user ?? null,
    returnedFrom: body.refundingFrom ? { id: body.refundingFrom } : null,
  };
}
