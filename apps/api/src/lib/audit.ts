import type { Db, Tx } from '../db/client.ts';
import { auditLog } from '../db/schema/index.ts';
import type { AuthInfo } from '../plugins/auth.ts';

/**
 * Audit actions (issue 21.4). Written with `audit(tx, ...)` inside the transaction of the action,
 * so an action and its record are committed together or not at all.
 */
export type AuditAction = `${string}.${string}` & (
  | 'auth.login' | 'auth.loginFailed' | 'auth.passwordChanged' | 'auth.passwordReset'
  | 'product.created' | 'product.updated' | 'product.deleted' | 'product.imported'
  | 'sale.discountOverLimit' | 'sale.priceOverride' | 'sale.voided' | 'sale.restored' | 'sale.heldDeleted' | 'sale.heldResumed' | 'sale.refunded' | 'sale.cashRefundOfCard'
  | 'approval.granted' | 'approval.refused'
  | 'closing.edited' | 'closing.closed'
  | 'drawer.opened' | 'labels.printed'
  | 'user.created' | 'user.updated' | 'user.deleted' | 'user.pinSet'
  | 'role.created' | 'role.updated' | 'role.deleted'
  | 'settings.changed' | 'customer.creditTerms' | 'customer.payment' | 'customer.erased'
  /** Stock documents (modules/stock, issue 25): entity 'stock_transfer' | 'stock_count' | 'stock_adjustment', entityId the document's id. */
  | 'stock.transferRequested' | 'stock.transferSent' | 'stock.transferReceived' | 'stock.transferCancelled'
  | 'stock.countApproved' | 'stock.countCancelled' | 'stock.adjusted'
  /** Resource writes (resources/engine.ts): `<type>.created|updated|deleted`, e.g. product.updated, setting.updated. */
  | `${string}.${'created' | 'updated' | 'deleted'}`);

export interface AuditEntry {
  action: AuditAction;
  actor?: Pick<AuthInfo, 'userId' | 'displayName'> | { userId: number | null; displayName: string | null } | null;
  approver?: { userId: number; displayName: string } | null;
  storeId?: number | null;
  entity?: string;
  entityId?: string | number | null;
  before?: unknown;
  after?: unknown;
  details?: unknown;
  address?: string | null;
}

export async function audit(db: Db | Tx, e: AuditEntry): Promise<void> {
  await (db as Db).insert(auditLog).values({
    action: e.action,
    actorId: e.actor?.userId ?? null,
    actorName: e.actor?.displayName ?? null,
    approverId: e.approver?.userId ?? null,
    approverName: e.approver?.displayName ?? null,
    storeId: e.storeId ?? null,
    entity: e.entity ?? null,
    entityId: e.entityId == null ? null : String(e.entityId),
    before: e.before ?? null,
    after: e.after ?? null,
    details: e.details ?? null,
    address: e.address ?? null,
  });
}

/** Only the fields that differ between two records (for before/after). */
export function changed(before: Record<string, unknown>, after: Record<string, unknown>): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const k of Object.keys(after)) {
    if (k === 'updatedAt' || k === 'password' || k === 'pinHash') continue;
    if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) { b[k] = before[k]; a[k] = after[k]; }
  }
  return { before: b, after: a };
}
