import crypto from 'node:crypto';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { AppError, unauthorized, validationError } from '@pos/domain/errors';
import type { Db } from '../../db/client.ts';
import { loginAttempt, passwordReset, refreshToken, store, terminal, userAccount, userStore } from '../../db/schema/index.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { hasRole, type TokenService } from '../../plugins/auth.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { isoDate, storeSettingsJson } from '../../lib/present.ts';

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
const FAILURE_WINDOW_MS = 15 * 60 * 1000;
export const INVALID_CREDENTIALS = 'Invalid credentials.';

/** The user as /auth/info and the profile call return it: stores with their terminals. */
export async function presentUser(db: Db, userId: number) {
  const [u] = await db.select().from(userAccount).where(eq(userAccount.id, userId));
  if (!u) return null;
  const stores = await db.select({ s: store }).from(userStore).innerJoin(store, eq(store.id, userStore.storeId))
    .where(eq(userStore.userId, userId)).orderBy(store.id);
  const terms = stores.length ? await db.select().from(terminal)
    .where(sql`${terminal.storeId} in (${sql.join(stores.map((s) => sql`${s.s.id}`), sql`, `)})`).orderBy(terminal.id) : [];
  return {
    '@id': `/api/users/${u.id}`, id: u.id, username: u.username, displayName: u.displayName, email: u.email,
    roles: u.roles, isActive: u.isActive, uuid: u.uuid, locale: u.locale,
    stores: stores.map(({ s }) => ({
      '@id': `/api/stores/${s.id}`, id: s.id, name: s.name, location: s.location, isActive: s.isActive, ...storeSettingsJson(s),
      terminals: terms.filter((t) => t.storeId === s.id && t.isActive).map((t) => ({
        '@id': `/api/terminals/${t.id}`, id: t.id, code: t.code, description: t.description, isActive: t.isActive, uuid: t.uuid,
        createdAt: { datetime: isoDate(t.createdAt) }, updatedAt: { datetime: isoDate(t.updatedAt) },
      })),
    })),
  };
}

/**
 * Reserves one attempt per key before the password is checked: one atomic upsert each, so parallel
 * guesses cannot all slip past the limit (no check-then-act race, shared by every API process).
 * Returns false when any key is over the limit.
 */
async function claimAttempt(db: Db, keys: string[], max: number): Promise<boolean> {
  const since = new Date(Date.now() - FAILURE_WINDOW_MS);
  let allowed = true;
  for (const key of keys) {
    const [row] = await db.insert(loginAttempt).values({ key, failures: 1, windowStart: new Date() }).onConflictDoUpdate({
      target: loginAttempt.key,
      set: {
        failures: sql`case when ${loginAttempt.windowStart} < ${since} then 1 else ${loginAttempt.failures} + 1 end`,
        windowStart: sql`case when ${loginAttempt.windowStart} < ${since} then now() else ${loginAttempt.windowStart} end`,
      },
    }).returning({ failures: loginAttempt.failures });
    if (row.failures > max) allowed = false;
  }
  return allowed;
}

/**
 * Checks a username and password and issues a token pair. The same 401 for an unknown user and a
 * wrong password; too many failures per user or per address give 429 until the window passes.
 */
export async function login(db: Db, tokens: TokenService, input: { username: string; password: string; role?: string; ip: string; maxFailures: number; refreshTtl: number; bcryptRounds?: number }) {
  const keys = [`u:${input.username.toLowerCase()}`, `ip:${input.ip}`];
  if (!(await claimAttempt(db, keys, input.maxFailures))) {
    throw new AppError(429, 'RATE_LIMITED', 'Too many failed login attempts, please try again later.');
  }
  const [user] = await db.select().from(userAccount).where(eq(userAccount.username, input.username)).limit(1);
  const ok = await verifyPassword(input.password, user?.password, input.bcryptRounds);
  if (!user || !ok) throw unauthorized(INVALID_CREDENTIALS, 'INVALID_CREDENTIALS');
  if (!user.isActive) throw unauthorized('Your account is disabled!', 'ACCOUNT_DISABLED');
  if (input.role && !hasRole(user.roles, input.role)) throw unauthorized('Cannot login in this portal', 'FORBIDDEN');
  // A good login clears the user's count and gives back its reserved attempt on the address
  // (many cashiers may sign in from one shop address).
  await db.delete(loginAttempt).where(eq(loginAttempt.key, keys[0]));
  await db.update(loginAttempt).set({ failures: sql`greatest(${loginAttempt.failures} - 1, 0)` }).where(eq(loginAttempt.key, keys[1]));
  return issueTokens(db, tokens, user, input.refreshTtl);
}

async function issueTokens(db: Db, tokens: TokenService, user: { id: number; username: string; roles: string[] }, refreshTtl: number) {
  const token = await tokens.sign(user);
  const refresh = crypto.randomBytes(32).toString('base64url');
  await db.insert(refreshToken).values({ tokenHash: sha256(refresh), userId: user.id, expiresAt: new Date(Date.now() + refreshTtl * 1000) });
  return { token, refresh_token: refresh };
}

/** Exchanges a refresh token for a new pair; the old refresh token is used up (rotation). */
export async function refresh(db: Db, tokens: TokenService, refreshTokenValue: string, refreshTtl: number) {
  const [row] = await db.delete(refreshToken)
    .where(and(eq(refreshToken.tokenHash, sha256(refreshTokenValue)), gt(refreshToken.expiresAt, new Date())))
    .returning();
  if (!row) throw unauthorized('Invalid JWT Refresh Token');
  const [user] = await db.select().from(userAccount).where(eq(userAccount.id, row.userId));
  if (!user || !user.isActive) throw unauthorized('Invalid JWT Refresh Token');
  return issueTokens(db, tokens, user, refreshTtl);
}

export async function revokeRefreshToken(db: Db, value: string) {
  await db.delete(refreshToken).where(eq(refreshToken.tokenHash, sha256(value)));
}

export const RESET_SENT = 'An email has been sent to you, please follow the instructions';
const RESET_TTL_MS = 60 * 60 * 1000;

/**
 * Starts a password reset. Answers the same whether or not the user exists (no account probing);
 * the link carries a single-use token valid for one hour; only its hash is stored.
 */
export async function requestPasswordReset(db: Db, mailer: Mailer, publicUrl: string, username: string) {
  const [user] = await db.select().from(userAccount).where(eq(userAccount.username, username)).limit(1);
  if (user && user.isActive) {
    const token = crypto.randomBytes(32).toString('base64url');
    await db.delete(passwordReset).where(lt(passwordReset.expiresAt, new Date()));
    await db.insert(passwordReset).values({ tokenHash: sha256(token), userId: user.id, expiresAt: new Date(Date.now() + RESET_TTL_MS) });
    const link = `${publicUrl.replace(/\/$/, '')}/reset-password/${token}`;
    await mailer.send({
      to: user.email ?? user.username,
      subject: 'Reset your password',
      text: `Hello ${user.displayName},\n\nUse this link within one hour to choose a new password:\n${link}\n`,
    });
  }
  return { code: 200, message: RESET_SENT, status: true };
}

export async function resetPassword(db: Db, token: string, password: string, rounds: number) {
  const hash = await hashPassword(password, rounds);
  return db.transaction(async (tx) => {
    // Mark used and read in one statement: two concurrent resets cannot both use the token.
    const [row] = await tx.update(passwordReset).set({ usedAt: new Date() })
      .where(and(eq(passwordReset.tokenHash, sha256(token)), isNull(passwordReset.usedAt), gt(passwordReset.expiresAt, new Date())))
      .returning();
    if (!row) throw validationError([{ propertyPath: 'resetToken', message: 'Invalid password reset request' }], 'Invalid password reset request');
    await tx.update(userAccount).set({ password: hash, updatedAt: new Date() }).where(eq(userAccount.id, row.userId));
    await tx.delete(refreshToken).where(eq(refreshToken.userId, row.userId));
    return { code: 200, message: 'Password reset was successful', status: true };
  });
}

/** Updates the caller's own profile; the username stays unique. */
export async function updateProfile(db: Db, userId: number, input: { displayName?: string; email?: string | null; username?: string; password?: string | null }, rounds: number) {
  if (input.username) {
    const [other] = await db.select({ id: userAccount.id }).from(userAccount).where(eq(userAccount.username, input.username));
    if (other && other.id !== userId) throw validationError([{ propertyPath: 'username', message: 'This value is already used.' }]);
  }
  const set: Partial<typeof userAccount.$inferInsert> = { updatedAt: new Date() };
  if (input.displayName !== undefined) set.displayName = input.displayName;
  if (input.email !== undefined) set.email = input.email;
  if (input.username !== undefined) set.username = input.username;
  if (input.password) set.password = await hashPassword(input.password, rounds);
  await db.update(userAccount).set(set).where(eq(userAccount.id, userId));
  return presentUser(db, userId);
}
