import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { BLANK, NOT_CHOICE, email, flag, text } from '@pos/domain/wire-fields';
import { notFound, validationError } from '@pos/domain/errors';
import type { Db, Tx } from '../../db/client.ts';
import { expense, purchase, refreshToken, store, terminal, userAccount, userStore } from '../../db/schema/index.ts';
import type { ResourceCtx } from '../../resources/engine.ts';
import { dateObj, presentStoreBrief } from '../../lib/present.ts';
import { assertCallerStores } from '../../lib/scope.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { newPassword } from '../../lib/password-policy.ts';
import { assertMayChange, assertMayGrant } from './user-policy.ts';
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
  roles: rolesField(),
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

export async function createUser(db: Db, input: z.output<typeof userCreateBody>, ctx: ResourceCtx, rounds: number): Promise<number> {
  assertCallerStores(ctx.auth, input.stores, 'stores');
  await assertMayGrant(db, ctx.auth, input.roles);
  await assertUsernameFree(db, input.username);
  const hash = await hashPassword(input.password, rounds);
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx.insert(userAccount).values({
        username: input.username, password: hash, displayName: input.displayName, email: input.email, roles: input.roles,
        isActive: input.isActive ?? true,
      }).returning({ id: userAccount.id });
      await setUserStores(tx, row.id, input.stores, ctx);
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
export async function applyUserUpdate(tx: Tx, id: number, input: UserUpdateInput, ctx: ResourceCtx, passwordHash: string | null) {
  await assertMayChange(tx, ctx.auth, id, { roles: input.roles, isActive: input.isActive, password: Boolean(passwordHash) });
  if (input.username) await assertUsernameFree(tx, input.username, id);
  const set: Partial<typeof userAccount.$inferInsert> = { updatedAt: new Date() };
  for (const k of ['username', 'displayName', 'email', 'roles', 'isActive'] as const) if (input[k] !== undefined) (set as any)[k] = input[k];
  if (passwordHash) { set.password = passwordHash; (set as Record<string, unknown>).tokenVersion = sql`${userAccount.tokenVersion} + 1`; }
  await tx.update(userAccount).set(set).where(eq(userAccount.id, id));
  if (input.stores) await setUserStores(tx, id, input.stores, ctx);
  if (passwordHash) await tx.delete(refreshToken).where(eq(refreshToken.userId, id));
}

/** PUT /api/admin/user/{id}: 404 outside the caller's stores; the id comes from the URL. */
export async function updateUser(db: Db, id: number, input: UserUpdateInput, ctx: ResourceCtx, rounds: number) {
  await assertUserVisible(db, id, ctx);
  const hash = input.password ? await hashPassword(input.password, rounds) : null;
  try {
    await db.transaction((tx) => applyUserUpdate(tx, id, input, ctx, hash));
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
    await tx.delete(userAccount).where(eq(userAccount.id, id));
  });
}

type UserRow = typeof userAccount.$inferSelect;

/** Stores of many users, limited to the caller's stores (another store's name is not shown). */
async function storesOf(db: Db | Tx, userIds: number[], ctx: ResourceCtx) {
  if (!userIds.length || !ctx.auth.storeIds.length) return [];
  return (db as Db).select({ userId: userStore.userId, s: store }).from(userStore).innerJoin(store, eq(store.id, userStore.storeId))
    .where(and(inArray(userStore.userId, userIds), inArray(userStore.storeId, ctx.auth.storeIds))).orderBy(asc(store.id));
}

/** Users as /api/users lists them: never the password. */
export async function presentUsers(db: Db | Tx, rows: UserRow[], ctx: ResourceCtx) {
  const links = await storesOf(db, rows.map((r) => r.id), ctx);
  return rows.map((u) => ({
    id: u.id, username: u.username, displayName: u.displayName, email: u.email, roles: u.roles, isActive: u.isActive, locale: u.locale,
    stores: links.filter((l) => l.userId === u.id).map((l) => presentStoreBrief(l.s)),
    createdAt: u.createdAt.toISOString(), updatedAt: u.updatedAt.toISOString(), uuid: u.uuid,
  }));
}

/** UserDto of the custom endpoints: stores with their (active) terminals. */
export async function presentUserDtos(db: Db | Tx, rows: UserRow[], ctx: ResourceCtx) {
  const links = await storesOf(db, rows.map((r) => r.id), ctx);
  const storeIds = [...new Set(links.map((l) => l.s.id))];
  const terms = storeIds.length ? await (db as Db).select().from(terminal).where(inArray(terminal.storeId, storeIds)).orderBy(asc(terminal.id)) : [];
  return rows.map((u) => ({
    '@id': `/api/users/${u.id}`, id: u.id, username: u.username, displayName: u.displayName, email: u.email, roles: u.roles,
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
