import { asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { notFound, validationError, type Violation } from '@pos/domain/errors';
import { text } from '@pos/domain/wire-fields';
import { BUILTIN_PERMISSIONS, BUILTIN_ROLES, isPermission, type BuiltinRole, type Permission } from '@pos/domain/permissions';
import type { Db, Tx } from '../../db/client.ts';
import { staffRole, userAccount } from '../../db/schema/index.ts';
import type { AuthInfo } from '../../plugins/auth.ts';
import { audit } from '../../lib/audit.ts';

/**
 * Roles (issue 21.1): the built-in Owner, Manager and Cashier, and custom roles. A custom role
 * grants only permissions its creator holds (and an update only what the editor holds); unknown
 * names and such grants are a 422 naming `permissions[i]`, nothing written.
 */
type RoleRow = typeof staffRole.$inferSelect;

export interface ResolvedRole { id: number; key: BuiltinRole | 'custom'; name: string; permissions: Permission[] }

export function resolvedOf(r: RoleRow): ResolvedRole {
  const key = (r.builtin ?? 'custom') as ResolvedRole['key'];
  const permissions = key === 'custom' ? (r.permissions ?? []).filter(isPermission) : [...BUILTIN_PERMISSIONS[key]];
  return { id: r.id, key, name: r.name, permissions };
}

export function presentRole(r: RoleRow) {
  const x = resolvedOf(r);
  return { '@id': `/api/roles/${r.id}`, '@type': 'Role', id: r.id, name: r.name, builtin: r.builtin, permissions: x.permissions };
}

/** A role from an id, an IRI (/api/roles/3) or a built-in key (owner, manager, cashier); 422 on `field` when unknown. */
export async function resolveRole(db: Db | Tx, value: unknown, field = 'role'): Promise<ResolvedRole> {
  let row: RoleRow | undefined;
  // The role object a user was presented with, sent back on edit: its id (or @id) counts.
  const ref = value && typeof value === 'object' && !Array.isArray(value)
    ? ((value as Record<string, unknown>).id ?? (value as Record<string, unknown>)['@id'] ?? (value as Record<string, unknown>).key) : value;
  if (typeof ref === 'string' && (BUILTIN_ROLES as readonly string[]).includes(ref)) {
    [row] = await (db as Db).select().from(staffRole).where(eq(staffRole.builtin, ref));
  } else {
    const m = typeof ref === 'number' ? String(ref) : typeof ref === 'string' ? /^(?:\/api\/roles\/)?(\d{1,9})$/.exec(ref.trim())?.[1] : undefined;
    if (m) [row] = await (db as Db).select().from(staffRole).where(eq(staffRole.id, Number(m)));
  }
  if (!row) throw validationError([{ propertyPath: field, message: `'Role' ${JSON.stringify(ref)} not found` }]);
  return resolvedOf(row);
}

const permissionsField = z.array(z.unknown(), { error: 'This value should be of type array.' }).max(50);

export const roleBody = z.object({ name: text(100), permissions: permissionsField });
export const roleUpdateBody = roleBody.partial();

/** 422 for unknown names and for permissions the caller does not hold. */
function checkGrant(perms: unknown[], auth: AuthInfo): Permission[] {
  const v: Violation[] = [];
  perms.forEach((p, i) => {
    if (!isPermission(p)) v.push({ propertyPath: `permissions[${i}]`, message: `${JSON.stringify(p)} is not a permission.` });
    else if (!auth.permissions.includes(p)) v.push({ propertyPath: `permissions[${i}]`, message: `You cannot grant '${p}': you do not have it.` });
  });
  if (v.length) throw validationError(v);
  return [...new Set(perms as Permission[])];
}

const nameTaken = () => validationError([{ propertyPath: 'name', message: 'This value is already used.' }]);

async function assertNameFree(db: Db | Tx, name: string, selfId?: number) {
  const [other] = await (db as Db).select({ id: staffRole.id }).from(staffRole).where(sql`lower(${staffRole.name}) = ${name.toLowerCase()}`);
  if (other && other.id !== selfId) throw nameTaken();
}

export async function listRoles(db: Db) {
  const rows = await db.select().from(staffRole).orderBy(asc(staffRole.id));
  return rows.map(presentRole);
}

export async function getRole(db: Db, id: number) {
  const [row] = await db.select().from(staffRole).where(eq(staffRole.id, id));
  if (!row) throw notFound('Role not found');
  return row;
}

export async function createRole(db: Db, auth: AuthInfo, input: z.output<typeof roleBody>) {
  const permissions = checkGrant(input.permissions, auth);
  return db.transaction(async (tx) => {
    await assertNameFree(tx, input.name);
    const [row] = await tx.insert(staffRole).values({ name: input.name, permissions, createdById: auth.userId }).returning();
    await audit(tx, { action: 'role.created', actor: auth, entity: 'role', entityId: row.id, after: { name: row.name, permissions } });
    return row;
  });
}

function assertCustom(row: RoleRow) {
  if (row.builtin) throw validationError([{ propertyPath: 'id', message: `${row.name} is a built-in role: it cannot be changed or deleted.` }]);
}

export async function updateRole(db: Db, auth: AuthInfo, id: number, input: z.output<typeof roleUpdateBody>) {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(staffRole).where(eq(staffRole.id, id)).for('update');
    if (!row) throw notFound('Role not found');
    assertCustom(row);
    // The editor must hold everything the role grants today, or they could strip a stronger role.
    checkGrant(row.permissions, auth);
    const permissions = input.permissions ? checkGrant(input.permissions, auth) : row.permissions;
    const name = input.name ?? row.name;
    await assertNameFree(tx, name, id);
    const [after] = await tx.update(staffRole).set({ name, permissions, updatedAt: new Date() }).where(eq(staffRole.id, id)).returning();
    await audit(tx, { action: 'role.updated', actor: auth, entity: 'role', entityId: id, before: { name: row.name, permissions: row.permissions }, after: { name, permissions } });
    return after;
  });
}

export async function deleteRole(db: Db, auth: AuthInfo, id: number) {
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(staffRole).where(eq(staffRole.id, id)).for('update');
    if (!row) throw notFound('Role not found');
    assertCustom(row);
    checkGrant(row.permissions, auth);
    const [used] = await tx.select({ n: sql<number>`count(*)::int` }).from(userAccount).where(eq(userAccount.roleId, id));
    if (Number(used.n) > 0) throw validationError([{ propertyPath: 'id', message: `${used.n} user(s) have this role: give them another one first.` }]);
    await tx.delete(staffRole).where(eq(staffRole.id, id));
    await audit(tx, { action: 'role.deleted', actor: auth, entity: 'role', entityId: id, before: { name: row.name, permissions: row.permissions } });
  });
}
