import crypto from 'node:crypto';
import { and, eq, gt, gte, isNull, or } from 'drizzle-orm';
import { z } from 'zod';
import { AppError, forbidden, validationError, type Violation } from '@pos/domain/errors';
import { PIN_MESSAGE, PIN_PATTERN, isPermission, type Permission } from '@pos/domain/permissions';
import type { Db, Tx } from '../../db/client.ts';
import { approval, loginAttempt, userAccount } from '../../db/schema/index.ts';
import { loadAuthInfo, type AuthInfo } from '../../plugins/auth.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { audit } from '../../lib/audit.ts';
import { claimAttempt } from '../auth/auth.service.ts';

/**
 * Manager approval at the till (issue 21.2). A cashier who lacks a permission asks a manager on
 * the same till; the manager types their user name and PIN (or password). The answer is a token
 * that covers ONE action: single use, 2 minutes, bound to the permission, the store, the cashier
 * and (for a discount) the largest percent approved. The action sends it back (`approval` in the
 * sale body); consuming it and recording both names happen in the action's own transaction.
 */
export const APPROVAL_TTL_MS = 2 * 60 * 1000;
const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

export const approvalBody = z.object({
  permission: z.unknown(),
  username: z.string({ error: 'This value should not be blank.' }).trim().min(1, 'This value should not be blank.').max(180),
  pin: z.unknown().optional(),
  password: z.string().max(4096).optional(),
  store: z.unknown(),
  /** Discount approvals: the percent approved (up to two decimals). */
  upTo: z.unknown().optional(),
  note: z.string().max(255).optional(),
});

export const pinBody = z.object({ pin: z.unknown(), currentPassword: z.string().max(4096).optional() });

/** A PIN of the right shape (4-8 digits, as a string or number), else a 422 naming `field`. */
export function parsePin(v: unknown, field = 'pin'): string {
  const s = typeof v === 'number' && Number.isInteger(v) ? String(v) : v;
  if (typeof s !== 'string' || !PIN_PATTERN.test(s)) throw validationError([{ propertyPath: field, message: PIN_MESSAGE }]);
  return s;
}

/** Sets a user's PIN (hashed like a password). */
export async function setPin(db: Db | Tx, userId: number, pin: string, rounds: number) {
  await (db as Db).update(userAccount).set({ pinHash: await hashPassword(pin, rounds), updatedAt: new Date() }).where(eq(userAccount.id, userId));
}

const refused = () => new AppError(403, 'FORBIDDEN', 'Not approved: wrong user name or PIN, or this user may not approve it here.');

export async function grantApproval(db: Db, cashier: AuthInfo, input: z.output<typeof approvalBody>, opts: { ip: string; rounds: number; maxFailures: number }) {
  const v: Violation[] = [];
  if (!isPermission(input.permission)) v.push({ propertyPath: 'permission', message: `${JSON.stringify(input.permission)} is not a permission.` });
  if (input.pin === undefined && !input.password) v.push({ propertyPath: 'pin', message: 'A PIN or a password is needed.' });
  let pin: string | null = null;
  if (input.pin !== undefined) { try { pin = parsePin(input.pin); } catch { v.push({ propertyPath: 'pin', message: PIN_MESSAGE }); } }
  const storeId = Number(String(input.store ?? '').replace(/^\/api\/stores\//, ''));
  if (!Number.isInteger(storeId) || !cashier.storeIds.includes(storeId)) v.push({ propertyPath: 'store', message: `'Store' ${JSON.stringify(input.store)} not found` });
  let upTo: number | null = null;
  if (input.upTo !== undefined && input.upTo !== null && input.upTo !== '') {
    const n = Number(input.upTo);
    if (!Number.isFinite(n) || n <= 0 || n > 100) v.push({ propertyPath: 'upTo', message: 'This value should be a percent between 0 and 100.' });
    else upTo = Math.round(n * 100);
  }
  if (v.length) throw validationError(v);
  const permission = input.permission as Permission;
  // Rate-limited like a sign-in: per (approver name, address) and per approver name.
  const name = input.username.toLowerCase();
  const keys = [{ key: `pin:${opts.ip}|${name}`.slice(0, 255), max: opts.maxFailures }, { key: `pinuser:${name}`.slice(0, 255), max: opts.maxFailures * 3 }];
  if (!(await claimAttempt(db, keys))) throw new AppError(429, 'RATE_LIMITED', 'Too many failed approvals, please try again later.');
  const [u] = await db.select({ id: userAccount.id, pinHash: userAccount.pinHash, password: userAccount.password }).from(userAccount).where(eq(userAccount.username, input.username)).limit(1);
  const ok = pin != null ? await verifyPassword(pin, u?.pinHash, opts.rounds) : await verifyPassword(input.password ?? '', u?.password, opts.rounds);
  const approver = ok && u ? await loadAuthInfo(db, u.id) : null;
  if (!approver || approver.userId === cashier.userId || !approver.permissions.includes(permission) || !approver.storeIds.includes(storeId)) {
    await audit(db, { action: 'approval.refused', actor: cashier, storeId, details: { permission, approver: input.username, upTo: upTo == null ? null : upTo / 100 }, address: opts.ip });
    throw refused();
  }
  await db.delete(loginAttempt).where(eq(loginAttempt.key, keys[0].key));
  const token = crypto.randomBytes(24).toString('base64url');
  const expiresAt = new Date(Date.now() + APPROVAL_TTL_MS);
  await db.transaction(async (tx) => {
    await tx.insert(approval).values({
      tokenHash: sha256(token), permission, storeId, requestedById: cashier.userId, approvedById: approver.userId, approvedByName: approver.displayName,
      upTo, note: input.note ?? null, expiresAt,
    });
    await audit(tx, { action: 'approval.granted', actor: cashier, approver, storeId, details: { permission, upTo: upTo == null ? null : upTo / 100, note: input.note ?? null }, address: opts.ip });
  });
  return { approval: token, permission, expiresAt: expiresAt.toISOString(), approvedBy: { id: approver.userId, name: approver.displayName }, upTo: upTo == null ? null : upTo / 100 };
}

/**
 * Uses an approval for one action inside its transaction: null when none was sent; 403 naming
 * `approval` when it is unknown, used, expired, for another permission, store or cashier, or for
 * less than `amount` (hundredths of a percent).
 */
export async function consumeApproval(tx: Tx, token: string | null | undefined, need: { permission: Permission; storeId: number; userId: number; amount?: number }): Promise<{ userId: number; displayName: string } | null> {
  if (!token) return null;
  const [row] = await tx.update(approval).set({ usedAt: new Date() }).where(and(
    eq(approval.tokenHash, sha256(token)), isNull(approval.usedAt), gt(approval.expiresAt, new Date()),
    eq(approval.permission, need.permission), eq(approval.storeId, need.storeId), eq(approval.requestedById, need.userId),
    need.amount === undefined ? undefined : or(isNull(approval.upTo), gte(approval.upTo, need.amount)),
  )).returning({ userId: approval.approvedById, displayName: approval.approvedByName });
  if (!row) throw forbidden(`approval: not valid for this action ('${need.permission}'); it is used, expired or for another action.`);
  return row;
}
