import { and, eq, ne, sql } from 'drizzle-orm';
import { forbidden, notFound, validationError } from '@pos/domain/errors';
import type { Db, Tx } from '../../db/client.ts';
import { staffRole, store, userAccount, userStore } from '../../db/schema/index.ts';
import { roleOf, type AuthInfo } from '../../plugins/auth.ts';
import type { ResolvedRole } from '../staff/roles.service.ts';

/**
 * Who manages whom (issue 21 point 3), on roles (21.1):
 * - the chain's owner is an Owner who belongs to every store: they manage everyone and alone grant
 *   the Owner and Manager roles;
 * - anyone else with the 'users' permission manages only users who are neither Owner nor Manager,
 *   whose stores are all within theirs and whose role grants nothing they lack, and grants only
 *   such roles (a custom role stronger than oneself is refused);
 * - nobody changes their own role, deactivates or deletes themselves;
 * - the last active Owner is never deleted, disabled or demoted.
 */

/** The transaction lock key taken by changes that may remove an active owner. */
const LAST_OWNER_LOCK = 21_003;
export const NOT_YOURS = 'Only an owner (an Owner of every store) can manage this user.';

/** True when the caller is an Owner of every store. */
export async function isOwner(db: Db | Tx, auth: AuthInfo): Promise<boolean> {
  if (auth.role.key !== 'owner') return false;
  const rows = await (db as Db).select({ id: store.id }).from(store);
  return rows.every((s) => auth.storeIds.includes(s.id));
}

/** SQL: the user row `u` is an Owner (their role row, or no role and the legacy ROLE_ADMIN). */
export const OWNER_SQL = sql`(${userAccount.roleId} in (select id from ${staffRole} where builtin = 'owner') or (${userAccount.roleId} is null and ${userAccount.roles} @> '["ROLE_ADMIN"]'::jsonb))`;

interface Target { id: number; isActive: boolean; storeIds: number[]; role: ResolvedRole | { id: number | null; key: string; permissions: string[] } }

async function readTarget(db: Db | Tx, id: number): Promise<Target> {
  const [u] = await (db as Db).select({ id: userAccount.id, roles: userAccount.roles, isActive: userAccount.isActive, r: staffRole })
    .from(userAccount).leftJoin(staffRole, eq(staffRole.id, userAccount.roleId)).where(eq(userAccount.id, id));
  if (!u) throw notFound('User not found');
  const links = await (db as Db).select({ storeId: userStore.storeId }).from(userStore).where(eq(userStore.userId, id));
  const { role, permissions } = roleOf({ roles: u.roles, role: u.r ? { id: u.r.id, builtin: u.r.builtin, name: u.r.name, permissions: u.r.permissions } : null });
  return { id: u.id, isActive: u.isActive ?? false, storeIds: links.map((l) => l.storeId), role: { ...role, permissions } };
}

const strong = (key: string) => key === 'owner' || key === 'manager';
const within = (perms: readonly string[], auth: AuthInfo) => perms.every((p) => (auth.permissions as string[]).includes(p));

/** 403 naming `role` unless the caller may grant this role. */
export async function assertMayGrant(db: Db | Tx, auth: AuthInfo, role: ResolvedRole | undefined) {
  if (!role) return;
  if (strong(role.key) && !(await isOwner(db, auth))) throw forbidden(`role: only an owner can grant the ${role.name} role.`);
  if (!within(role.permissions, auth)) throw forbidden(`role: ${role.name} grants permissions you do not have.`);
}

export interface UserChange { role?: ResolvedRole; isActive?: boolean; password?: boolean; remove?: boolean }

/**
 * Checks that the caller may make this change to user `id` (already known to be visible to them);
 * run inside the write's transaction so the last-owner count cannot race.
 */
export async function assertMayChange(tx: Db | Tx, auth: AuthInfo, id: number, change: UserChange) {
  const target = await readTarget(tx, id);
  const roleChanges = change.role !== undefined && change.role.id !== target.role.id && !(target.role.id == null && change.role.key === target.role.key);
  if (id === auth.userId) {
    if (change.remove) throw validationError([{ propertyPath: 'id', message: 'You cannot delete your own account.' }]);
    if (change.isActive === false) throw validationError([{ propertyPath: 'isActive', message: 'You cannot deactivate your own account.' }]);
    if (roleChanges) throw validationError([{ propertyPath: 'roles', message: 'You cannot change your own roles.' }]);
    if (change.password) throw validationError([{ propertyPath: 'password', message: 'Change your own password in your profile, with your current password.' }]);
    return;
  }
  const owner = await isOwner(tx, auth);
  if (!owner) {
    const mine = target.storeIds.every((s) => auth.storeIds.includes(s));
    if (strong(target.role.key) || !mine || !within(target.role.permissions, auth)) throw forbidden(NOT_YOURS);
  }
  if (roleChanges) await assertMayGrant(tx, auth, change.role);
  const staysOwner = !change.remove && change.isActive !== false && (change.role ? change.role.key === 'owner' : true);
  if (target.isActive && target.role.key === 'owner' && !staysOwner) {
    // One lock for every owner-losing change: two owners demoting each other at once cannot both pass.
    await (tx as Db).execute(sql`select pg_advisory_xact_lock(${LAST_OWNER_LOCK})`);
    const others = await (tx as Db).select({ id: userAccount.id }).from(userAccount)
      .where(and(ne(userAccount.id, id), eq(userAccount.isActive, true), OWNER_SQL));
    if (!others.length) {
      const path = change.remove ? 'id' : change.isActive === false ? 'isActive' : 'roles';
      throw validationError([{ propertyPath: path, message: 'This is the last active owner: it cannot be deleted, disabled or demoted.' }]);
    }
  }
}
