/** Purchase, purchase order, supplier and supplier payment forms (spec 5) and their wire bodies (reference client 2.7-2.9). */
import { z } from 'zod';
import { messages } from '@pos/domain/validation';
import { isValidMoneyInput } from '@pos/domain/money';
import { normaliseNumberText } from '@/components/ui/number-input';
import { iri } from '@/features/list-table/lib/refs';
import { cleanNumber, linesSchema, type Line } from './lines.ts';

const req = () => z.string({ error: messages.required }).trim().min(1, { error: messages.required });
// Money inputs may show the locale's separator or Arabic-Indic digits: checked in the wire's form (cleanNumber on submit).
// A MoneyInput caps the decimals at the store currency's (USD 2, KWD 3: issue 19); here at most 3, the stored scale.
const money = () => req().refine((v) => isValidMoneyInput(normaliseNumberText(v), { scale: 3 }), { error: messages.number });

export const PURCHASE_MODES = ['Items list', 'Purchase order'] as const;
export type PurchaseMode = (typeof PURCHASE_MODES)[number];

export const purchaseSchema = z
  .object({
    createdAt: req(),
    purchaseNumber: req(),
    purchaseMode: z.enum(PURCHASE_MODES, { error: messages.required }),
    purchaseOrder: z.string(),
    supplier: z.string(),
    paymentType: req(),
    updateStocks: z.boolean(),
    updatePrice: z.boolean(),
    items: linesSchema,
  })
  .superRefine((v, ctx) => {
    if (v.purchaseMode === 'Purchase order' && !v.purchaseOrder) ctx.addIssue({ code: 'custom', path: ['purchaseOrder'], message: messages.required });
  });
export type PurchaseForm = z.input<typeof purchaseSchema>;

export const purchaseOrderSchema = z.object({
  createdAt: req(),
  poNumber: req(),
  supplier: req(),
  items: linesSchema,
});
export type PurchaseOrderForm = z.input<typeof purchaseOrderSchema>;

export const supplierSchema = z.object({
  name: req(),
  phone: req(),
  email: req().pipe(z.email({ error: messages.email })),
  openingBalance: money(),
  stores: z.array(z.string()).min(1, { error: messages.required }),
});
export type SupplierForm = z.input<typeof supplierSchema>;

export const supplierPaymentSchema = z.object({
  amount: money().refine((v) => !isValidMoneyInput(normaliseNumberText(v)) || Number(normaliseNumberText(v)) !== 0, { error: messages.amountZero }),
  description: req(),
  purchase: z.string(),
});
export type SupplierPaymentForm = z.input<typeof supplierPaymentSchema>;

const orNull = (v: string) => (v.trim() === '' ? null : cleanNumber(v));

function purchaseLines(items: readonly Line[], poMode: boolean) {
  return items.map((l) => ({
    item: l.item,
    quantity: cleanNumber(l.quantity),
    quantityRequested: orNull(l.quantityRequested),
    purchasePrice: cleanNumber(l.purchasePrice),
    comments: l.comments,
    purchaseUnit: l.unit || null,
    variants: l.variants.map((v) => ({
      ...(v.id ? { id: v.id } : {}),
      variant: v.variant,
      quantity: cleanNumber(v.quantity),
      quantityRequested: poMode ? orNull(v.quantityRequested) : null,
      purchasePrice: cleanNumber(v.purchasePrice),
    })),
  }));
}

/** POST/PUT /purchases body. The server computes the total. */
export function purchasePayload(v: PurchaseForm, ctx: { storeId: number; userId: number }) {
  const poMode = v.purchaseMode === 'Purchase order';
  return {
    createdAt: v.createdAt,
    purchaseNumber: v.purchaseNumber.trim(),
    purchaseMode: v.purchaseMode,
    purchaseOrder: poMode && v.purchaseOrder ? v.purchaseOrder : null,
    supplier: v.supplier || null,
    paymentType: v.paymentType,
    store: iri('stores', ctx.storeId),
    purchasedBy: iri('users', ctx.userId),
    updateStocks: v.updateStocks,
    updatePrice: v.updatePrice,
    items: purchaseLines(v.items, poMode),
  };
}

/** POST/PUT /purchase_orders body. */
export function purchaseOrderPayload(v: PurchaseOrderForm, storeId: number) {
  return {
    createdAt: v.createdAt,
    poNumber: v.poNumber.trim(),
    supplier: v.supplier,
    store: iri('stores', storeId),
    items: v.items.map((l) => ({
      item: l.item,
      quantity: cleanNumber(l.quantity),
      price: cleanNumber(l.purchasePrice),
      comments: l.comments,
      unit: l.unit || null,
      variants: l.variants.map((x) => ({ ...(x.id ? { id: x.id } : {}), variant: x.variant, quantity: cleanNumber(x.quantity), purchasePrice: cleanNumber(x.purchasePrice) })),
    })),
  };
}

export function supplierPayload(v: SupplierForm) {
  return {
    name: v.name.trim(),
    phone: v.phone.trim(),
    email: v.email.trim(),
    openingBalance: cleanNumber(v.openingBalance),
    stores: v.stores.map((id) => iri('stores', id)),
  };
}
