import crypto from 'node:crypto';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { AppError, unauthorized, validationError } from '@pos/domain/errors';
import type { Db } from '../../db/client.ts';
import { loginAttempt, passwordReset, refreshToken, store, terminal, userAccount, userStore } from '../../db/schema/index.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { can, loadAuthInfo, mayEnterPortal, type AuthInfo, type TokenService } from '../../plugins/auth.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { isoDate, storeSettingsJson } from '../../lib/present.ts';
import { audit } from '../../lib/audit.ts';

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
const FAILURE_WINDOW_MS = 15 * 60 * 1000;
export const INVALID_CREDENTIALS = 'Invalid credentials.';

/** The user as /auth/info and the profile call return it: stores with their terminals. */
export async function presentUser(db: Db, userId: number) {
  const [u] = await db.select().from(userAccount).where(eq(userAccount.id, userId));
  if (!u) return null;
  const who = await loadAuthInfo(db, userId);
  const stores = await db.select({ s: store }).from(userStore).innerJoin(store, eq(store.id, userStore.storeId))
    .where(eq(userStore.userId, userId)).orderBy(store.id);
  const terms = stores.length ? await db.select().from(terminal)
    .where(sql`${terminal.storeId} in (${sql.join(stores.map((s) => sql`${s.s.id}`), sql`, `)})`).orderBy(terminal.id) : [];
  return {
    '@id': `/api/users/${u.id}`, id: u.id, username: u.username, displayName: u.displayName, email: u.email,
    roles: u.roles, isActive: u.isActive, uuid: u.uuid, locale: u.locale,
    // Issue 21.1: the role and what it grants; the web app hides what the user may not do.
    role: who ? { id: who.role.id, key: who.role.key, name: who.role.name } : null, permissions: who?.permissions ?? [], hasPin: u.pinHash != null,
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
 * Returns false when any key is over its limit. A key over its limit has its window restarted by
 * every further attempt: the lockout lasts as long as the guessing goes on, plus one window.
 */
export async function claimAttempt(db: Db, keys: { key: string; max: number }[], windowMs = FAILURE_WINDOW_MS): Promise<boolean> {
  const since = new Date(Date.now() - windowMs);
  let allowed = true;
  for (const { key, max } of keys) {
    const [row] = await db.insert(loginAttempt).values({ key, failures: 1, windowStart: new Date() }).onConflictDoUpdate({
      target: loginAttempt.key,
      set: {
        failures: sql`case when ${loginAttempt.windowStart} < ${since} then 1 else ${loginAttempt.failures} + 1 end`,
        windowStart: sql`case when ${loginAttempt.windowStart} < ${since} or ${loginAttempt.failures} >= ${max} then now() else ${loginAttempt.windowStart} end`,
      },
    }).returning({ failures: loginAttempt.failures });
    if (row.failures > max) allowed = false;
  }
  return allowed;
}

/** How many failures one address may make across all user names (password spraying) per window. */
const ADDRESS_FACTOR = 3;

/**
 * Checks a username and password and issues a token pair. The same 401 for an unknown user and a
 * wrong password. Failures are counted per (user name lower-cased, address): a stranger guessing
 * the owner's password locks out that pair only, never the owner at the till's address; and per
 * address across every name (spraying), at a higher limit. Over a limit: 429 until the window passes.
 */
export async function login(db: Db, tokens: TokenService, input: { username: string; password: string; role?: string; ip: string; maxFailures: number; refreshTtl: number; bcryptRounds?: number }) {
  const keys = [
    { key: `p:${input.ip}|${input.username.toLowerCase()}`.slice(0, 255), max: input.maxFailures },
    { key: `ip:${input.ip}`, max: input.maxFailures * ADDRESS_FACTOR },
  ];
  if (!(await claimAttempt(db, keys))) {
    throw new AppError(429, 'RATE_LIMITED', 'Too many failed login attempts, please try again later.');
  }
  const [user] = await db.select().from(userAccount).where(eq(userAccount.username, input.username)).limit(1);
  const ok = await verifyPassword(input.password, user?.password, input.bcryptRounds);
  const failed = async (reason: string) => audit(db, {
    action: 'auth.loginFailed', actor: user ? { userId: user.id, displayName: user.displayName } : null, address: input.ip,
    details: { username: input.username.slice(0, 180), reason },
  });
  if (!user || !ok) { await failed(user ? 'password' : 'unknown user'); throw unauthorized(INVALID_CREDENTIALS, 'INVALID_CREDENTIALS'); }
  if (!user.isActive) { await failed('disabled'); throw unauthorized('Your account is disabled!', 'ACCOUNT_DISABLED'); }
  if (input.role) {
    const who = await loadAuthInfo(db, user.id);
    if (!who || !mayEnterPortal(who, input.role)) throw unauthorized('Cannot login in this portal', 'FORBIDDEN');
  }
  // A good login clears the pair's count and gives back its reserved attempt on the address
  // (many cashiers may sign in from one shop address).
  await db.delete(loginAttempt).where(eq(loginAttempt.key, keys[0].key));
  await db.update(loginAttempt).set({ failures: sql`greatest(${loginAttempt.failures} - 1, 0)` }).where(eq(loginAttempt.key, keys[1].key));
  await audit(db, { action: 'auth.login', actor: { userId: user.id, displayName: user.displayName }, address: input.ip, details: input.role ? { portal: input.role } : null });
  return issueTokens(db, tokens, user, input.refreshTtl);
}

export async function issueTokens(db: Db, tokens: TokenService, user: { id: number; username: string; roles: string[]; tokenVersion?: number }, refreshTtl: number) {
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
const FORGOT_MAX = 5;
const FORGOT_WINDOW_MS = 15 * 60 * 1000;

/**
 * Starts a password reset. Answers the same, after the same work, whether or not the user exists
 * (no account probing by content or timing): the token is made and stored either way (for an
 * unknown or disabled user the row is written and rolled back), and the mail is sent after the
 * answer. Rate-limited per address and per user name (429). The link carries a single-use token
 * valid for one hour; only its hash is stored.
 */
export async function requestPasswordReset(db: Db, mailer: Mailer, publicUrl: string, username: string, ip: string, log?: { error: (o: unknown, m: string) => void }) {
  const keys = [{ key: `fp:ip:${ip}`, max: FORGOT_MAX }, { key: `fp:u:${username.toLowerCase()}`.slice(0, 255), max: FORGOT_MAX }];
  if (!(await claimAttempt(db, keys, FORGOT_WINDOW_MS))) {
    throw new AppError(429, 'RATE_LIMITED', 'Too many password reset requests, please try again later.');
  }
  const [user] = await db.select().from(userAccount).where(eq(userAccount.username, username)).limit(1);
  const token = crypto.randomBytes(32).toString('base64url');
  const real = Boolean(user && user.isActive);
  await db.transaction(async (tx) => {
    await tx.delete(passwordReset).where(lt(passwordReset.expiresAt, new Date()));
    // The same insert either way; for nobody it is undone (the user id must exist, so one is borrowed).
    const [anyone] = real ? [user] : await tx.select({ id: userAccount.id }).from(userAccount).limit(1);
    if (anyone) await tx.insert(passwordReset).values({ tokenHash: sha256(token), userId: anyone.id, expiresAt: new Date(Date.now() + RESET_TTL_MS) });
    if (!real) tx.rollback();
  }).catch((e) => { if (real || !(e instanceof Error && /rollback/i.test(e.message + e.name))) throw e; });
  if (real) {
    const link = `${publicUrl.replace(/\/$/, '')}/reset-password/${token}`;
    // Sent after the answer: the mail server's latency must not tell that the user exists.
    void mailer.send({
      to: user.email ?? user.username,
      subject: 'Reset your password',
      text: `Hello ${user.displayName},\n\nUse this link within one hour to choose a new password:\n${link}\n`,
    }).catch((e) => log?.error({ err: e }, 'password reset mail failed'));
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
    // Ends every session (refresh tokens, and access tokens through the token version) and voids
    // the user's other reset links, older or newer.
    await tx.update(userAccount).set({ password: hash, tokenVersion: sql`${userAccount.tokenVersion} + 1`, updatedAt: new Date() }).where(eq(userAccount.id, row.userId));
    await tx.delete(refreshToken).where(eq(refreshToken.userId, row.userId));
    await tx.update(passwordReset).set({ usedAt: new Date() }).where(and(eq(passwordReset.userId, row.userId), isNull(passwordReset.usedAt)));
    return { code: 200, message: 'Password reset was successful', status: true };
  });
}

export type ProfileInput = { displayName?: string; email?: string | null; username?: string; password?: string | null; currentPassword?: string | null };

/**
 * Updates the caller's own profile; the username stays unique and only an admin changes theirs; a
 * non-admin cannot take another user's display name. A new password needs the current one and
 * ends every other session (refresh tokens revoked, older access tokens refused through the token
 * version); the caller gets a fresh token pair back.
 */
export async function updateProfile(db: Db, tokens: TokenService, auth: AuthInfo, input: ProfileInput, opts: { rounds: number; refreshTtl: number }) {
  const userId = auth.userId;
  const [me] = await db.select().from(userAccount).where(eq(userAccount.id, userId));
  if (input.username !== undefined && input.username !== me.username) {
    if (!can(auth, 'users')) throw validationError([{ propertyPath: 'username', message: "Changing a user name needs the 'users' permission." }]);
    const [other] = await db.select({ id: userAccount.id }).from(userAccount).where(eq(userAccount.username, input.username));
    if (other && other.id !== userId) throw validationError([{ propertyPath: 'username', message: 'This value is already used.' }]);
  }
  if (input.displayName !== undefined && !can(auth, 'users') && input.displayName.toLowerCase() !== me.displayName.toLowerCase()) {
    const [other] = await db.select({ id: userAccount.id }).from(userAccount)
      .where(and(sql`lower(${userAccount.displayName}) = ${input.displayName.toLowerCase()}`, sql`${userAccount.id} <> ${userId}`)).limit(1);
    if (other) throw validationError([{ propertyPath: 'displayName', message: 'This value is already used.' }]);
  }
  const set: Partial<typeof userAccount.$inferInsert> = { updatedAt: new Date() };
  if (input.displayName !== undefined) set.displayName = input.displayName;
  if (input.email !== undefined) set.email = input.email;
  if (input.username !== undefined) set.username = input.username;
  if (input.password) {
    if (!input.currentPassword || !(await verifyPassword(input.currentPassword, me.password, opts.rounds))) {
      throw validationError([{ propertyPath: 'currentPassword', message: 'This value should be your current password.' }]);
    }
    set.password = await hashPassword(input.password, opts.rounds);
    (set as Record<string, unknown>).tokenVersion = sql`${userAccount.tokenVersion} + 1`;
  }
  const [after] = await db.transaction(async (tx) => {
    const rows = await tx.update(userAccount).set(set).where(eq(userAccount.id, userId)).returning();
    if (input.password) await tx.delete(refreshToken).where(eq(refreshToken.userId, userId));
    return rows;
  });
  const fresh = input.password ? await issueTokens(db, tokens, after, opts.refreshTtl) : {};
  return { user: await presentUser(db, userId), ...fresh };
}
