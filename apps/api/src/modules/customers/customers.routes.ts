import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { BLANK, NOT_EMAIL, NOT_NUMBER, NOT_POSITIVE_OR_ZERO, TOO_LONG, decimal, optionalText, parseRef, text } from '@pos/domain/wire-fields';
import type { Db } from '../../db/client.ts';
import { customer } from '../../db/schema/index.ts';
import { exactAmounts, storeDigits } from '../../lib/store-money.ts';
import { caller } from '../../plugins/auth.ts';
import { parseBody, parseId, registerResource, stripReadOnly } from '../../resources/engine.ts';
import {
  addCustomerPayment, createCustomer, customerPaymentsResource, customersResource, presentCustomerById, updateCustomer,
} from './customers.service.ts';
import { assertCreditTerms } from './customer.access.ts';
import { eraseCustomer } from './customer.erase.ts';
import { assertCustomerVisible } from '../customer-account/customer.scope.ts';

const tags = ['Customers'];

/**
 * A customer's amounts in their store's currency (issue 19): more decimals than it has is a 422
 * naming the field, nothing written; the amount is kept in the currency's exact form. A customer
 * shared across the chain (no store) is held to the caller's first store.
 */
async function inCurrency<T extends { openingBalance?: string | null; creditLimit?: string | null; amount?: string }>(
  db: Db, input: T, customerId: number | null, storeIds: readonly number[],
): Promise<T> {
  let storeId = storeIds[0] ?? 0;
  if (customerId != null) {
    const [c] = await db.select({ storeId: customer.storeId }).from(customer).where(eq(customer.id, customerId));
    storeId = c?.storeId ?? storeId;
  }
  const digits = await storeDigits(db, storeId);
  return { ...input, ...exactAmounts({ openingBalance: input.openingBalance, creditLimit: input.creditLimit, amount: input.amount }, digits) } as T;
}

const optionalEmail = z.union([z.literal(''), z.null(), z.string().trim().max(255, TOO_LONG).email(NOT_EMAIL)]).optional()
  .transform((v) => (v === '' ? null : v));
const optionalNumber = z.union([z.number(), z.string(), z.null()], { error: NOT_NUMBER }).optional().transform((v, ctx) => {
  if (v === undefined) return undefined;
  if (v === null || v === '') return null;
  const n = Number(v);
  if (!Number.isFinite(n)) { ctx.addIssue({ code: 'custom', message: NOT_NUMBER }); return z.NEVER; }
  return n;
});
/** An optional amount as number or numeric string; '' and null clear it. */
const optionalAmount = (opts: { min?: number } = {}) => z.unknown().optional().transform((v, ctx): string | null | undefined => {
  if (v === undefined) return undefined;
  if (v === null || v === '') return null;
  const s = typeof v === 'number' && Number.isFinite(v) ? String(v) : typeof v === 'string' ? v.trim() : '';
  // Any decimals here; the customer's store's currency decides how many are allowed (inCurrency below).
  if (!/^-?\d{1,15}(\.\d{1,12})?$/.test(s)) { ctx.addIssue({ code: 'custom', message: NOT_NUMBER }); return z.NEVER; }
  if (opts.min !== undefined && Number(s) < opts.min) { ctx.addIssue({ code: 'custom', message: NOT_POSITIVE_OR_ZERO }); return z.NEVER; }
  return s;
});
/** 'yyyy-MM-dd', an ISO date-time or the DTO wrapper {datetime}; stored as a date. */
const optionalBirthday = z.unknown().optional().transform((v, ctx): string | null | undefined => {
  if (v === undefined) return undefined;
  if (v === null || v === '') return null;
  // Strings only (a hostile object's String() can throw).
  const raw = typeof v === 'object' && v && 'datetime' in v ? (v as { datetime: unknown }).datetime : v;
  const s = typeof raw === 'string' ? raw : '';
  const m = /^(\d{4}-\d{2}-\d{2})/.exec(s.trim());
  if (!m || Number.isNaN(Date.parse(m[1]))) { ctx.addIssue({ code: 'custom', message: 'This value is not a valid date.' }); return z.NEVER; }
  return m[1];
});
const boolish = z.union([z.boolean(), z.literal(0), z.literal(1), z.literal('true'), z.literal('false'), z.literal('1'), z.literal('0'), z.null()]).optional()
  .transform((v) => (v === undefined || v === null ? undefined : v === true || v === 1 || v === 'true' || v === '1'));

const fields = {
  name: text(255),
  phone: text(50),
  email: optionalEmail,
  cnic: optionalText(255),
  address: optionalText(255),
  birthday: optionalBirthday,
  lat: optionalNumber,
  lng: optionalNumber,
  openingBalance: optionalAmount({ min: 0 }),
  /** The form's name; `allowCreditSale` (the model's) is read when the form's is absent. */
  allowCredit: boolish,
  allowCreditSale: boolish,
  /** Empty or null: no limit. */
  creditLimit: optionalAmount({ min: 0 }),
};
const toInput = (b: any) => {
  const { allowCredit, allowCreditSale, ...rest } = b;
  const allow = allowCredit ?? allowCreditSale;
  return { ...rest, ...(allow !== undefined ? { allowCreditSale: allow } : {}) };
};
const createBody = z.object(fields).transform(toInput);
const updateBody = z.object(fields).partial().transform(toInput);

const paymentBody = z.object({
  amount: decimal({ positive: true }),
  description: text(2000),
  customer: z.unknown().transform((v, ctx) => {
    const id = parseRef(v);
    if (id == null) { ctx.addIssue({ code: 'custom', message: id === null ? BLANK : 'This value is not a valid reference.' }); return z.NEVER; }
    return id;
  }),
  /** The client sends the order's IRI under `orderId`; `order` is accepted too. */
  orderId: z.unknown().optional(),
  order: z.unknown().optional(),
}).transform((b, ctx) => {
  const raw = b.orderId ?? b.order;
  const orderId = parseRef(raw);
  if (orderId === undefined) { ctx.addIssue({ code: 'custom', path: ['orderId'], message: 'This value is not a valid reference.' }); return z.NEVER; }
  return { amount: b.amount, description: b.description, customerId: b.customer, orderId };
});

/** Customers (create, update, list with figures and ledger) and customer payments (reference client 2.6). */
export default async function customersRoutes(app: FastifyInstance) {
  const { db } = app;
  const user = { auth: 'user' as const };

  registerResource(app, customersResource);
  registerResource(app, customerPaymentsResource);

  app.post('/api/customers', { config: user, schema: { tags, summary: 'Create a customer: {customer}' } }, async (request, reply) => {
    const auth = caller(request);
    const input = await inCurrency(db, parseBody(createBody, stripReadOnly(request.body)), null, auth.storeIds);
    await assertCreditTerms(db, auth, input, request.body);
    const id = await createCustomer(db, input, auth);
    reply.status(201);
    return { customer: await presentCustomerById(db, id, auth) };
  });

  const update = async (request: any) => {
    const auth = caller(request);
    const id = parseId(request.params.id);
    await assertCustomerVisible(db, id, auth);
    const input = await inCurrency(db, parseBody(updateBody, stripReadOnly(request.body)), id, auth.storeIds);
    await assertCreditTerms(db, auth, input, request.body, id);
    await updateCustomer(db, id, input);
    return { customer: await presentCustomerById(db, id, auth) };
  };
  app.put('/api/customers/:id', { config: user, schema: { tags, summary: 'Update a customer (merge): {customer}' } }, update);
  app.patch('/api/customers/:id', { config: user, schema: { tags, summary: 'Update a customer (merge): {customer}' } }, update);

  app.post('/api/customers/:id/erase', { config: { auth: 'customer.creditTerms' as const }, schema: { tags, summary: 'Erase a customer on request: personal data removed, sales kept anonymous' } }, async (request) =>
    eraseCustomer(db, parseId((request.params as { id: string }).id), caller(request)));

  app.post('/api/customer_payments', { config: { auth: 'customer.payments' as const }, schema: { tags, summary: 'Receive a payment from a customer: the payment' } }, async (request, reply) => {
    const auth = caller(request);
    const body = parseBody(paymentBody, stripReadOnly(request.body));
    const input = { ...body, amount: (await inCurrency(db, { amount: body.amount }, body.customerId, auth.storeIds)).amount! };
    reply.status(201);
    return addCustomerPayment(db, input, auth);
  });
}
