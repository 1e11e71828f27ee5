import { and, eq, inArray } from 'drizzle-orm';
import { parseMinor } from '@pos/domain/money';
import { creditCheck } from '@pos/domain/ledger';
import { currencyDigits } from '@pos/domain/currency';
import { taxModeOf } from '@pos/domain/tax';
import type { StoreMoneySettings } from '@pos/domain/store-settings';
import { fail } from '@pos/domain/sale-facts';
import { priceSale as priceFromFacts, type PricedSaleCore } from '@pos/domain/sale-price';
import type { OrderStatus, SaleInput } from '@pos/domain/schemas/sale';
import type { Tx } from '../../db/client.ts';
import { customer, discount, discountStore, paymentType, tax, taxStore } from '../../db/schema/index.ts';
import { can, type AuthInfo } from '../../plugins/auth.ts';
import { linkedToStore } from './sale-support.ts';
import type { OriginalOrder, PricingProduct, PaymentTypeRef, Pricing } from './sale-read.ts';
import { customerScope } from '../customer-account/customer.scope.ts';
import { loadCustomerFigures } from '../customer-account/customer.figures.ts';

export type { PricedLine, PriceOverride } from '@pos/domain/sale-lines';
export type { PaymentRow } from '@pos/domain/sale-settle';
export type { StoredDiscount } from '@pos/domain/sale-price';

// ---------------------------------------------------------------------------------------------
// Pricing: the server reads a sale's facts, @pos/domain prices it in one call, the server writes it
// ---------------------------------------------------------------------------------------------

export interface PricedSale extends PricedSaleCore {
  /** The catalogue rows the sale was priced from (the answer is built from them: see saleDto). */
  refs: {
    products: Map<number, PricingProduct>;
    variants: Map<number, PricingProduct['variants'][number]>;
    productTaxes: { productId: number; t: PricingProduct['taxes'][number] }[];
    paymentTypes: Map<number, PaymentTypeRef>;
    discountType: typeof discount.$inferSelect | null;
    taxType: typeof tax.$inferSelect | null;
  };
}

export interface PriceOptions {
  storeId: number;
  now: Date;
  status: OrderStatus;
  original: OriginalOrder | null;
  /** Skip the client-total comparison (server-built input). */
  skipTotalCheck?: boolean;
  /** What pricing reads, from the order's read (readOrder). */
  pricing: Pricing;
  /** The store's money settings (currency, time zone, tax mode, cash rounding). */
  settings: StoreMoneySettings;
  actor: AuthInfo;
}

/**
 * Prices a sale (issue 22.5): the facts pricing needs beyond the order's one read (readOrder: the
 * products and payment types) are read here first — the order tax and discount chosen, whether the
 * customer is visible to the caller, a return's original tenders — then `@pos/domain/sale-price`
 * prices the whole order from them in one pure call (lines from the catalogue or the original,
 * order tax and discount, totals in the store's tax mode, the client's total checked, payments
 * settled). Last, a sale put on a customer's account is checked against their credit limit under a
 * lock on the customer, so two tills cannot both spend the same headroom. Throws a 422 naming each
 * faulty field.
 */
export async function priceSale(tx: Tx, input: SaleInput, opt: PriceOptions): Promise<PricedSale> {
  const { storeId, original, settings } = opt;
  const digits = currencyDigits(settings.currency);
  const { products, types } = opt.pricing;
  // One after the other: they share the transaction's connection (a plain sale reads none of them).
  const taxRow = input.taxId == null || original ? null
    : (await tx.select().from(tax).where(and(eq(tax.id, input.taxId), eq(tax.isActive, true), linkedToStore(taxStore, tax.id, storeId))))[0] ?? null;
  const discountRow = input.discountId == null || original ? null
    : (await tx.select().from(discount).where(and(eq(discount.id, input.discountId), eq(discount.isActive, true), linkedToStore(discountStore, discount.id, storeId))))[0] ?? null;
  const customerVisible = input.customerId == null || original ? false
    : (await tx.select({ id: customer.id }).from(customer).where(and(eq(customer.id, input.customerId), customerScope(opt.actor)))).length > 0;
  // A return with no payments goes back to the original's tenders: their types, even if deactivated since.
  const tenderTypes = original && input.payments.length === 0 && original.payments.length
    ? await tx.select({ id: paymentType.id, name: paymentType.name, type: paymentType.type, canHaveChangeDue: paymentType.canHaveChangeDue }).from(paymentType)
      .where(inArray(paymentType.id, original.payments.map((p) => p.typeId).filter((x): x is number => x != null)))
    : [];
  const allTypes = [...types, ...tenderTypes.filter((x) => !types.some((y) => y.id === x.id))];

  const priced = priceFromFacts(input, {
    storeId, now: opt.now, digits, timeZone: settings.timeZone, taxMode: taxModeOf(settings), cashRoundingStep: settings.cashRoundingStep,
    products, paymentTypes: allTypes, orderTax: taxRow ?? 'missing', discount: discountRow ?? 'missing', customerVisible, original,
    mayRefundCashForNonCash: can(opt.actor, 'refund.cashForNonCash'),
  }, { status: opt.status, skipTotalCheck: opt.skipTotalCheck });

  if (priced.creditCents > 0 && priced.customerId != null) await checkCredit(tx, priced.customerId, priced.creditCents, digits);

  const variants = products.flatMap((p) => p.variants);
  return {
    ...priced,
    refs: {
      products: new Map(products.map((p) => [p.id, p])),
      variants: new Map(variants.map((x) => [x.id, x])),
      productTaxes: products.flatMap((p) => p.taxes.map((t) => ({ productId: p.id, t }))),
      paymentTypes: new Map(allTypes.map((x) => [x.id, x])),
      discountType: discountRow,
      taxType: taxRow,
    },
  };
}

/** The customer's credit headroom, under a lock on them: two tills cannot both spend it. */
async function checkCredit(tx: Tx, customerId: number, newCreditCents: number, digits: number): Promise<void> {
  const [c] = await tx.select().from(customer).where(eq(customer.id, customerId)).for('update');
  const fig = (await loadCustomerFigures(tx, [customerId])).get(customerId);
  const msg = creditCheck({
    limitCents: c.creditLimit == null ? null : parseMinor(c.creditLimit, digits),
    balanceCents: fig?.balance ?? 0,
    newCreditCents,
    allowCredit: c.allowCreditSale,
  });
  fail(msg ? [{ propertyPath: 'payments', message: msg }] : []);
}
