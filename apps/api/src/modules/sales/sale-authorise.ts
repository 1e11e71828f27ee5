import { forbidden } from '@pos/domain/errors';
import { minorToString } from '@pos/domain/money';
import type { Permission } from '@pos/domain/permissions';
import type { SaleInput } from '@pos/domain/schemas/sale';
import type { Tx } from '../../db/client.ts';
import { can, type AuthInfo } from '../../plugins/auth.ts';
import { audit, type AuditAction } from '../../lib/audit.ts';
import { consumeApproval } from '../staff/approvals.service.ts';
import type { PricedSale } from './sale-pricing.ts';

/**
 * What a sale needs beyond a sign-in (issue 21.1/21.2), decided on the priced sale before it is
 * written: a line or order discount above the store's limit ('discount.overLimit'), a unit price
 * typed on purpose ('price.override'), a return ('sale.refund'). The caller holds the permission,
 * or the sale carries a manager's approval for it (one permission per approval); else 403 naming
 * the field. Each such action is written to the audit log in the sale's transaction.
 */
export interface SaleNeed { permission: Permission; field: string; message: string; action: AuditAction; amount?: number; details: Record<string, unknown> }

/** Hundredths of a percent, rounded up (20.001 % is over a 20 % limit). */
const bp = (part: number, whole: number) => (whole <= 0 ? 0 : Math.ceil((part * 10_000) / whole));

export function saleNeeds(input: SaleInput, priced: PricedSale, limitPercent: number): SaleNeed[] {
  const needs: SaleNeed[] = [];
  const limit = limitPercent * 100;
  const $ = (c: number) => minorToString(c, priced.digits);
  if (input.refundingFrom != null) {
    needs.push({ permission: 'sale.refund', field: 'refundingFrom', message: "A return needs the 'sale.refund' permission or a manager's approval.", action: 'sale.refunded', details: { from: input.refundingFrom } });
    return needs;
  }
  priced.lines.forEach((l, i) => {
    const gross = Math.round((l.priceCents * l.qtyMilli) / 1000);
    const pct = bp(Math.min(l.discountCents, gross), gross);
    if (l.discountCents > 0 && pct > limit) {
      needs.push({
        permission: 'discount.overLimit', field: `items[${i}].discount`, amount: pct, action: 'sale.discountOverLimit',
        message: `A discount of ${pct / 100}% is above this store's limit of ${limitPercent}%: it needs the 'discount.overLimit' permission or a manager's approval.`,
        details: { line: i, productId: l.productId, product: l.productName, percent: pct / 100, limit: limitPercent, discount: $(l.discountCents), gross: $(gross) },
      });
    }
  });
  const t = priced.totals;
  const orderPct = bp(t.discountTotalCents, t.subTotalCents);
  if (t.discountTotalCents > 0 && orderPct > limit) {
    needs.push({
      permission: 'discount.overLimit', field: 'discountAmount', amount: orderPct, action: 'sale.discountOverLimit',
      message: `An order discount of ${orderPct / 100}% is above this store's limit of ${limitPercent}%: it needs the 'discount.overLimit' permission or a manager's approval.`,
      details: { order: true, percent: orderPct / 100, limit: limitPercent, discount: $(t.discountTotalCents), subTotal: $(t.subTotalCents) },
    });
  }
  for (const o of priced.overrides) {
    needs.push({
      permission: 'price.override', field: `items[${o.index}].price`, action: 'sale.priceOverride',
      message: "Changing a unit price needs the 'price.override' permission or a manager's approval.",
      details: { line: o.index, productId: input.items[o.index]?.productId, catalogue: $(o.catalogueCents), price: $(o.askedCents) },
    });
  }
  return needs;
}

/**
 * Checks the needs on the sale's transaction `tx` (an approval is used there) and returns the audit
 * writer to call once the order exists (the audit rows commit with the order).
 */
export async function authoriseSale(tx: Tx, input: SaleInput, priced: PricedSale, actor: AuthInfo, limitPercent: number): Promise<(orderId: number) => Promise<void>> {
  const needs = saleNeeds(input, priced, limitPercent);
  if (!needs.length) return async () => undefined;
  const lacking = [...new Set(needs.filter((n) => !can(actor, n.permission)).map((n) => n.permission))];
  let approver: { userId: number; displayName: string } | null = null;
  if (lacking.length) {
    const first = needs.find((n) => n.permission === lacking[0])!;
    if (lacking.length > 1 || !input.approval) throw forbidden(`${first.field}: ${first.message}`);
    const amount = Math.max(0, ...needs.filter((n) => n.permission === lacking[0]).map((n) => n.amount ?? 0));
    approver = await consumeApproval(tx, input.approval, { permission: lacking[0], storeId: input.storeId, userId: actor.userId, amount: amount || undefined });
  }
  return async (orderId) => {
    for (const n of needs) {
      await audit(tx, {
        action: n.action, actor, approver: lacking.includes(n.permission) ? approver : null, storeId: input.storeId,
        entity: 'order', entityId: orderId, details: n.details,
      });
    }
  };
}
