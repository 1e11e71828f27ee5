/**
 * The till's side of offline selling: when POST /api/admin/order/create gets no answer, a new
 * completed sale (cash, card, a refund of a known order, credit within the cached limit) or a held
 * order goes to the outbox, and the till gets a provisional order to print ("Not yet sent").
 */
import { CREDIT_NOT_ALLOWED_MESSAGE, creditCheck, customerBalance } from '@pos/domain/ledger';
import { minorToDecimal, sumCents } from '@pos/domain/money';
import { toast } from '@/components/ui/toast';
import { HttpError, NetworkError } from '@/lib/api-client';
import i18n from '@/lib/i18n';
import { getMoney, moneySettingsOf } from '@/lib/money';
import { getSession } from '@/lib/session';
import type { Customer } from '@/features/catalogue-cache/types';
import type { SaleBody } from '@/lib/sale-body';
import { enqueueSale, unsentCreditCents } from './outbox-app';
import { provisionalOrder, type ProvisionalOrder } from './provisional-order';

/** No answer at all, or a proxy / gateway saying the server is down (502, 503, 504). */
export function isUnreachable(error: unknown): boolean {
  return error instanceof NetworkError || (error instanceof HttpError && [502, 503, 504].includes(error.status));
}

/**
 * May this failed submit be queued? New sales only (a running order's settle edits a server row),
 * completed or held; a pending order (order mode) needs the server.
 */
export function canQueueOffline(body: SaleBody, error: unknown): boolean {
  return isUnreachable(error) && (body.status === 'Completed' || body.isSuspended);
}

export class OfflineRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OfflineRefusal';
  }
}

/**
 * Credit offline: only within the balance and limit the till knows (the customer as cached in the
 * cart), counting the credit of this customer's sales still in the outbox. The server checks
 * again on upload; a sale it refuses stays in the outbox, rejected, for a manager.
 */
export async function offlineCreditProblem(body: SaleBody, customer: Customer | null): Promise<string | null> {
  // Minor units of the store's currency (issue 19: a KWD credit keeps its fils).
  const money = getMoney();
  const m = money.minor;
  const credit = sumCents(body.payments.filter((p) => p.type.type === 'credit').map((p) => m(p.total)));
  if (credit <= 0) return null;
  if (!customer) return i18n.t('outbox:creditNeedsCustomer');
  const queued = await unsentCreditCents(customer.id, undefined, money.digits);
  const limitCents = customer.creditLimit === null || customer.creditLimit === undefined || customer.creditLimit === '' ? null : m(customer.creditLimit);
  const balanceCents = customerBalance({ outstandingCents: m(customer.outstanding ?? 0), openingBalanceCents: m(customer.openingBalance ?? 0) }) + queued;
  const problem = creditCheck({ limitCents, balanceCents, newCreditCents: credit, allowCredit: customer.allowCreditSale });
  if (!problem) return null;
  if (problem === CREDIT_NOT_ALLOWED_MESSAGE) return i18n.t('outbox:creditNotAllowed');
  return i18n.t('outbox:creditLimit', { limit: money.formatMinor(limitCents ?? 0), balance: money.formatMinor(balanceCents + credit) });
}

/** Queues the sale and answers like the server would, without a number (assigned on upload). */
export async function queueOfflineSale(body: SaleBody, customer: Customer | null = null): Promise<ProvisionalOrder> {
  const problem = await offlineCreditProblem(body, customer);
  if (problem) throw new OfflineRefusal(problem);
  const { store, terminal, user } = getSession();
  const money = getMoney();
  const grand = sumCents([money.minor(body.total), money.minor(body.adjustment ?? 0)]);
  const row = await enqueueSale(body, {
    terminalCode: terminal?.code ?? `T${body.terminal}`,
    summary: { total: minorToDecimal(grand, money.digits), lines: body.items.length, customer: customer?.name ?? body.customer ?? null, held: body.isSuspended },
  });
  toast.info(i18n.t('outbox:queued', { ref: row.localRef }), { title: i18n.t('outbox:offlineTitle') });
  return provisionalOrder(body, {
    localRef: row.localRef,
    createdAt: row.createdAt,
    // The whole store: the receipt formats with its money settings (lib/money useMoney(order.store)).
    store: store ? { ...store } : null,
    settings: moneySettingsOf(store),
    terminal: terminal ? { id: terminal.id, code: terminal.code } : null,
    user: user ? { id: user.id, displayName: user.displayName } : null,
    customerName: customer?.name ?? null,
  });
}
