import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { BLANK, NOT_CHOICE, email, flag, text } from '@pos/domain/wire-fields';
import { notFound, validationError } from '@pos/domain/errors';
import type { Db, Tx } from '../../db/client.ts';
import { expense, purchase, refreshToken, staffRole, store, terminal, userAccount, userStore } from '../../db/schema/index.ts';
import type { ResourceCtx } from '../../resources/engine.ts';
import { dateObj, presentStoreBrief } from '../../lib/present.ts';
import { assertCallerStores } from '../../lib/scope.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { newPassword } from '../../lib/password-policy.ts';
import { assertMayChange, assertMayGrant } from './user-policy.ts';
import { builtinOfLegacy, legacyRolesOf } from '@pos/domain/permissions';
import { audit, changed } from '../../lib/audit.ts';
import { resolveRole, type ResolvedRole } from '../staff/roles.service.ts';
import { parsePin } from '../staff/approvals.service.ts';
import { ADD_STORES, isUniqueViolation, orNull, refsField, scopes } from './shared.ts';

export const ROLES = ['ROLE_USER', 'ROLE_ADMIN'] as const;
const USED = 'This value is already used.';

const rolesField = () => z.array(z.unknown(), { error: 'This value should be of type array.' }).max(10).transform((roles, ctx) => {
  if (!roles.length) { ctx.addIssue({ code: 'custom', message: BLANK }); return z.NEVER; }
  const bad = roles.findIndex((r) => typeof r !== 'string' || !(ROLES as readonly string[]).includes(r));
  if (bad >= 0) { ctx.addIssue({ code: 'custom', message: NOT_CHOICE, path: [bad] }); return z.NEVER; }
  return [...new Set(roles as string[])];
});

/** Stores as the client sends them: id strings ("1"), also numbers, IRIs or {id}/{value} objects. */
const storesField = () => refsField(ADD_STORES).transform((v, ctx) => {
  if (v === undefined) { ctx.addIssue({ code: 'custom', message: ADD_STORES }); return z.NEVER; }
  return v ?? [];
});

const password = newPassword;

/** POST /api/admin/user/create. The password is required here only and is never returned. */
export const userCreateBody = z.object({
  username: text(180),
  password: password(),
  displayName: text(),
  email: email(),
  roles: rolesField().optional(),
  /** Issue 21.1: the role (id, /api/roles/{id} or owner|manager|cashier); without it the legacy roles decide. */
  role: z.unknown().optional(),
  /** Approval PIN, 4-8 digits (hashed; never returned). */
  pin: z.unknown().optional(),
  stores: storesField(),
  isActive: flag().optional(),
});

/** PUT /api/admin/user/{id}: a merge; an empty or null password keeps the current one. */
export const userUpdateBody = userCreateBody.extend({
  password: orNull(password()),
}).partial();
export type UserUpdateInput = z.output<typeof userUpdateBody>;

async function assertUsernameFree(db: Db | Tx, username: string, selfId?: number) {
  const [other] = await (db as Db).select({ id: userAccount.id }).from(userAccount).where(eq(userAccount.username, username));
  if (other && other.id !== selfId) throw validationError([{ propertyPath: 'username', message: USED }]);
}

/** Replaces a user's stores, keeping links to stores the caller does not manage. */
async function setUserStores(tx: Tx, userId: number, storeIds: number[], ctx: ResourceCtx) {
  assertCallerStores(ctx.auth, storeIds, 'stores');
  const mine = ctx.auth.storeIds.length ? ctx.auth.storeIds : [-1];
  await tx.delete(userStore).where(and(eq(userStore.userId, userId), inArray(userStore.storeId, mine)));
  if (storeIds.length) await tx.insert(userStore).values(storeIds.map((storeId) => ({ userId, storeId }))).onConflictDoNothing();
}

/**
 * The role a body asks for: `role`, else the legacy `roles` (ROLE_ADMIN: Owner; ROLE_USER: Cashier
 * when creating, or when the user is an Owner today; otherwise the role is kept).
 */
async function requestedRole(db: Db | Tx, input: { role?: unknown; roles?: string[] }, currentKey?: string): Promise<ResolvedRole | undefined> {
  if (input.role !== undefined && input.role !== null && input.role !== '') return resolveRole(db, input.role);
  if (!input.roles) return currentKey === undefined ? resolveRole(db, 'cashier') : undefined;
  if (input.roles.includes('ROLE_ADMIN')) return resolveRole(db, 'owner');
  if (currentKey === undefined || currentKey === 'owner') return resolveRole(db, 'cashier');
  return undefined;
}

const pinOf = (v: unknown) => (v === undefined || v === null || v === '' ? null : parsePin(v));

export async function createUser(db: Db, input: z.output<typeof userCreateBody>, ctx: ResourceCtx, rounds: number): Promise<number> {
  assertCallerStores(ctx.auth, input.stores, 'stores');
  const role = (await requestedRole(db, input))!;
  const pin = pinOf(input.pin);
  await assertMayGrant(db, ctx.auth, role);
  await assertUsernameFree(db, input.username);
  const hash = await hashPassword(input.password, rounds);
  const pinHash = pin ? await hashPassword(pin, rounds) : null;
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx.insert(userAccount).values({
        username: input.username, password: hash, displayName: input.displayName, email: input.email, roles: legacyRolesOf(role.key), roleId: role.id,
        isActive: input.isActive ?? true, pinHash,
      }).returning({ id: userAccount.id });
      await setUserStores(tx, row.id, input.stores, ctx);
      await audit(tx, { action: 'user.created', actor: ctx.auth, entity: 'user', entityId: row.id, after: { username: input.username, displayName: input.displayName, role: role.name, stores: input.stores, isActive: input.isActive ?? true } });
      return row.id;
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw validationError([{ propertyPath: 'username', message: USED }]);
    throw e;
  }
}

/** 404 unless the user shares a store with the caller (or has none). */
export async function assertUserVisible(db: Db | Tx, id: number, ctx: ResourceCtx) {
  const rows = await (db as Db).select({ id: userAccount.id }).from(userAccount).where(and(eq(userAccount.id, id), scopes.user.scope(ctx)));
  if (!rows.length) throw notFound('User not found');
}

/**
 * Merge update of a user inside a transaction. Stores are replaced (within the caller's stores); a
 * new password hash signs the user out everywhere (refresh tokens revoked, older access tokens
 * refused). Who may change whom: user-policy.ts (nobody changes their own roles or deactivates
 * themselves; only the owner manages admins and users of other stores; the last admin stays).
 */
export async function applyUserUpdate(tx: Tx, id: number, input: UserUpdateInput, ctx: ResourceCtx, passwordHash: string | null, pinHash: string | null = null) {
  const [before] = await tx.select().from(userAccount).where(eq(userAccount.id, id));
  if (!before) throw notFound('User not found');
  const currentKey = before.roleId != null ? (await resolveRole(tx, before.roleId)).key : builtinOfLegacy(before.roles);
  let role = await requestedRole(tx, input, currentKey);
  // The same role sent back (the old client's roles, the presented role) is no change.
  if (role && role.key === currentKey && (before.roleId == null ? role.key !== 'custom' : before.roleId === role.id)) role = undefined;
  await assertMayChange(tx, ctx.auth, id, { role, isActive: input.isActive, password: Boolean(passwordHash) || Boolean(pinHash) });
  if (input.username) await assertUsernameFree(tx, input.username, id);
  const set: Partial<typeof userAccount.$inferInsert> = { updatedAt: new Date() };
  for (const k of ['username', 'displayName', 'email', 'isActive'] as const) if (input[k] !== undefined) (set as any)[k] = input[k];
  if (role) { set.roleId = role.id; set.roles = legacyRolesOf(role.key); }
  if (pinHash) set.pinHash = pinHash;
  if (passwordHash) { set.password = passwordHash; (set as Record<string, unknown>).tokenVersion = sql`${userAccount.tokenVersion} + 1`; }
  const [after] = await tx.update(userAccount).set(set).where(eq(userAccount.id, id)).returning();
  if (input.stores) await setUserStores(tx, id, input.stores, ctx);
  if (passwordHash) await tx.delete(refreshToken).where(eq(refreshToken.userId, id));
  const diff = changed(before as never, after as never);
  if (role) { diff.before.role = currentKey; diff.after.role = role.name; }
  if (input.stores) diff.after.stores = input.stores;
  if (passwordHash) diff.after.password = 'changed';
  if (pinHash) diff.after.pin = 'changed';
  await audit(tx, { action: 'user.updated', actor: ctx.auth, entity: 'user', entityId: id, before: diff.before, after: diff.after });
}

/** PUT /api/admin/user/{id}: 404 outside the caller's stores; the id comes from the URL. */
export async function updateUser(db: Db, id: number, input: UserUpdateInput, ctx: ResourceCtx, rounds: number) {
  await assertUserVisible(db, id, ctx);
  const hash = input.password ? await hashPassword(input.password, rounds) : null;
  const pin = pinOf(input.pin);
  const pinHash = pin ? await hashPassword(pin, rounds) : null;
  try {
    await db.transaction((tx) => applyUserUpdate(tx, id, input, ctx, hash, pinHash));
  } catch (e) {
    if (isUniqueViolation(e)) throw validationError([{ propertyPath: 'username', message: USED }]);
    throw e;
  }
}

/** Hard delete; refused for oneself and while expenses or purchases name the user (deactivate instead). */
export async function deleteUser(db: Db, id: number, ctx: ResourceCtx) {
  await assertUserVisible(db, id, ctx);
  await db.transaction(async (tx) => {
    await assertMayChange(tx, ctx.auth, id, { remove: true });
    const [e] = await tx.select({ n: sql<number>`count(*)::int` }).from(expense).where(eq(expense.userId, id));
    const [p] = await tx.select({ n: sql<number>`count(*)::int` }).from(purchase).where(eq(purchase.purchasedById, id));
    if (Number(e.n) + Number(p.n) > 0) throw validationError([{ propertyPath: 'id', message: 'This user has expenses or purchases; deactivate the user instead.' }]);
    const [gone] = await tx.delete(userAccount).where(eq(userAccount.id, id)).returning({ username: userAccount.username, displayName: userAccount.displayName });
    await audit(tx, { action: 'user.deleted', actor: ctx.auth, entity: 'user', entityId: id, before: gone });
  });
}

type UserRow = typeof userAccount.$inferSelect;

/** Stores of many users, limited to the caller's stores (another store's name is not shown). */
async function storesOf(db: Db | Tx, userIds: number[], ctx: ResourceCtx) {
  if (!userIds.length || !ctx.auth.storeIds.length) return [];
  return (db as Db).select({ userId: userStore.userId, s: store }).from(userStore).innerJoin(store, eq(store.id, userStore.storeId))
    .where(and(inArray(userStore.userId, userIds), inArray(userStore.storeId, ctx.auth.storeIds))).orderBy(asc(store.id));
}

/** Each user's role as {id, name, key} (no role row: from the legacy roles). */
async function rolesOf(db: Db | Tx, rows: UserRow[]) {
  const ids = [...new Set(rows.map((r) => r.roleId).filter((x): x is number => x != null))];
  const found = ids.length ? await (db as Db).select().from(staffRole).where(inArray(staffRole.id, ids)) : [];
  return (u: UserRow) => {
    const r = found.find((x) => x.id === u.roleId);
    if (r) return { '@id': `/api/roles/${r.id}`, id: r.id, name: r.name, key: r.builtin ?? 'custom' };
    const key = builtinOfLegacy(u.roles);
    return { '@id': null, id: null, name: key === 'owner' ? 'Owner' : 'Cashier', key };
  };
}

/** Users as /api/users lists them: never the password. */
export async function presentUsers(db: Db | Tx, rows: UserRow[], ctx: ResourceCtx) {
  const links = await storesOf(db, rows.map((r) => r.id), ctx);
  const roleOfUser = await rolesOf(db, rows);
  return rows.map((u) => ({
    id: u.id, username: u.username, displayName: u.displayName, email: u.email, roles: u.roles, role: roleOfUser(u), isActive: u.isActive, locale: u.locale,
    stores: links.filter((l) => l.userId === u.id).map((l) => presentStoreBrief(l.s)),
    createdAt: u.createdAt.toISOString(), updatedAt: u.updatedAt.toISOString(), uuid: u.uuid,
  }));
}

/** UserDto of the custom endpoints: stores with their (active) terminals. */
export async function presentUserDtos(db: Db | Tx, rows: UserRow[], ctx: ResourceCtx) {
  const links = await storesOf(db, rows.map((r) => r.id), ctx);
  const storeIds = [...new Set(links.map((l) => l.s.id))];
  const terms = storeIds.length ? await (db as Db).select().from(terminal).where(inArray(terminal.storeId, storeIds)).orderBy(asc(terminal.id)) : [];
  const roleOfUser = await rolesOf(db, rows);
  return rows.map((u) => ({
    '@id': `/api/users/${u.id}`, id: u.id, username: u.username, displayName: u.displayName, email: u.email, roles: u.roles, role: roleOfUser(u),
    isActive: u.isActive, uuid: u.uuid, locale: u.locale,
    stores: links.filter((l) => l.userId === u.id).map(({ s }) => ({
      ...presentStoreBrief(s),
      terminals: terms.filter((t) => t.storeId === s.id && t.isActive).map((t) => ({
        '@id': `/api/terminals/${t.id}`, id: t.id, code: t.code, description: t.description, isActive: t.isActive, uuid: t.uuid,
        createdAt: dateObj(t.createdAt), updatedAt: dateObj(t.updatedAt),
      })),
    })),
  }));
}

export async function getUserDto(db: Db, id: number, ctx: ResourceCtx) {
  const rows = await db.select().from(userAccount).where(and(eq(userAccount.id, id), scopes.user.scope(ctx)));
  if (!rows.length) throw notFound('User not found');
  const [dto] = await presentUserDtos(db, rows, ctx);
  return dto;
}
