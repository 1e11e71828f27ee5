import { and, eq, ne, sql } from 'drizzle-orm';
import { forbidden, notFound, validationError } from '@pos/domain/errors';
import type { Db, Tx } from '../../db/client.ts';
import { store, userAccount, userStore } from '../../db/schema/index.ts';
import type { AuthInfo } from '../../plugins/auth.ts';

/**
 * Who manages whom (issue 21 point 3), until roles and permissions land:
 * - the Owner is a ROLE_ADMIN who belongs to every store: they manage everyone;
 * - any other admin manages only ROLE_USER users whose stores are all within theirs, and cannot
 *   grant ROLE_ADMIN (they would take over a store that is not theirs, or their peers);
 * - nobody changes their own roles, deactivates or deletes themselves;
 * - the last active ROLE_ADMIN is never deleted, disabled or demoted.
 */

const ADMIN = 'ROLE_ADMIN';
/** The transaction lock key taken by changes that may remove an active admin. */
const LAST_ADMIN_LOCK = 21_003;
export const NOT_YOURS = 'Only an owner (an administrator of every store) can manage this user.';

/** True when the caller is an admin of every store. */
export async function isOwner(db: Db | Tx, auth: AuthInfo): Promise<boolean> {
  if (!auth.isAdmin) return false;
  const rows = await (db as Db).select({ id: store.id }).from(store);
  return rows.every((s) => auth.storeIds.includes(s.id));
}

interface Target { id: number; roles: string[]; isActive: boolean; storeIds: number[] }

async function readTarget(db: Db | Tx, id: number): Promise<Target> {
  const [u] = await (db as Db).select({ id: userAccount.id, roles: userAccount.roles, isActive: userAccount.isActive }).from(userAccount).where(eq(userAccount.id, id));
  if (!u) throw notFound('User not found');
  const links = await (db as Db).select({ storeId: userStore.storeId }).from(userStore).where(eq(userStore.userId, id));
  return { ...u, isActive: u.isActive ?? false, storeIds: links.map((l) => l.storeId) };
}

/** 403 unless the caller may grant these roles (only the owner grants ROLE_ADMIN). */
export async function assertMayGrant(db: Db | Tx, auth: AuthInfo, roles: string[] | undefined) {
  if (roles?.includes(ADMIN) && !(await isOwner(db, auth))) throw forbidden('Only an owner can grant ROLE_ADMIN.');
}

export interface UserChange { roles?: string[]; isActive?: boolean; password?: boolean; remove?: boolean }

/**
 * Checks that the caller may make this change to user `id` (already known to be visible to them);
 * run inside the write's transaction so the last-admin count cannot race.
 */
export async function assertMayChange(tx: Db | Tx, auth: AuthInfo, id: number, change: UserChange) {
  const target = await readTarget(tx, id);
  const sameRoles = (r: string[]) => r.length === target.roles.length && r.every((x) => target.roles.includes(x));
  if (id === auth.userId) {
    if (change.remove) throw validationError([{ propertyPath: 'id', message: 'You cannot delete your own account.' }]);
    if (change.isActive === false) throw validationError([{ propertyPath: 'isActive', message: 'You cannot deactivate your own account.' }]);
    if (change.roles && !sameRoles(change.roles)) throw validationError([{ propertyPath: 'roles', message: 'You cannot change your own roles.' }]);
    if (change.password) throw validationError([{ propertyPath: 'password', message: 'Change your own password in your profile, with your current password.' }]);
    return;
  }
  const owner = await isOwner(tx, auth);
  if (!owner) {
    const mine = target.storeIds.every((s) => auth.storeIds.includes(s));
    if (target.roles.includes(ADMIN) || !mine) throw forbidden(NOT_YOURS);
    if (change.roles?.includes(ADMIN)) throw forbidden('Only an owner can grant ROLE_ADMIN.');
  }
  const staysAdmin = !change.remove && change.isActive !== false && (change.roles ?? target.roles).includes(ADMIN);
  if (target.isActive && target.roles.includes(ADMIN) && !staysAdmin) {
    // One lock for every admin-losing change: two admins demoting each other at once cannot both pass.
    await (tx as Db).execute(sql`select pg_advisory_xact_lock(${LAST_ADMIN_LOCK})`);
    const others = await (tx as Db).select({ id: userAccount.id }).from(userAccount)
      .where(and(ne(userAccount.id, id), eq(userAccount.isActive, true), sql`${userAccount.roles} @> '["ROLE_ADMIN"]'::jsonb`));
    if (!others.length) {
      const path = change.remove ? 'id' : change.isActive === false ? 'isActive' : 'roles';
      throw validationError([{ propertyPath: path, message: 'This is the last active administrator: it cannot be deleted, disabled or demoted.' }]);
    }
  }
}
