import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { BLANK, email as emailField } from '@pos/domain/wire-fields';
import { forbidden } from '@pos/domain/errors';
import { eq } from 'drizzle-orm';
import { caller, mayEnterPortal } from '../../plugins/auth.ts';
import { parseBody } from '../../resources/engine.ts';
import { userAccount } from '../../db/schema/index.ts';
import { newPassword } from '../../lib/password-policy.ts';
import { login, presentUser, refresh, requestPasswordReset, resetPassword, revokeRefreshToken, updateProfile } from './auth.service.ts';

const loginBody = z.object({
  username: z.string({ error: BLANK }).min(1, BLANK).max(180),
  password: z.string({ error: BLANK }).min(1, BLANK).max(4096),
  role: z.string().max(50).optional(),
});
const refreshBody = z.object({ refresh_token: z.string({ error: BLANK }).min(1, BLANK).max(512) });
const forgotBody = z.object({ username: z.string({ error: BLANK }).trim().min(1, BLANK).max(180) });
const resetBody = z.object({
  resetToken: z.string({ error: BLANK }).min(1, BLANK).max(512),
  password: newPassword(),
});
const profileBody = z.object({
  displayName: z.string().trim().min(1, BLANK).max(255).optional(),
  email: z.union([emailField(), z.literal(''), z.null()]).optional().transform((v) => (v === '' ? null : v)),
  username: z.string().trim().min(1, BLANK).max(180).optional(),
  password: z.union([z.literal(''), z.null(), newPassword()]).optional().transform((v) => (v === '' ? null : v)),
  /** Required with a new password. */
  currentPassword: z.string().max(4096).nullish(),
});
const localeBody = z.object({ locale: z.enum(['en', 'ar'], { error: 'The value you selected is not a valid choice.' }) });

/**
 * The refresh token as an HttpOnly cookie (issue 21.5): set by the server at login and refresh,
 * sent only to /api/auth (logout, refresh), SameSite=Strict, Secure over https; cleared at logout.
 * Our client never stores it in script; the old client, which never reads it (it only writes and
 * deletes it), keeps working: its logout reaches the server, which revokes and clears the cookie.
 */
const REFRESH_COOKIE = 'refresh_token';
function refreshCookie(request: { protocol: string }, value: string, maxAge: number): string {
  return `${REFRESH_COOKIE}=${encodeURIComponent(value)}; Path=/api/auth; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${request.protocol === 'https' ? '; Secure' : ''}`;
}
const cookieRefreshToken = (request: { headers: { cookie?: string } }) => {
  const raw = /(?:^|;\s*)refresh_token=([^;]+)/.exec(String(request.headers.cookie ?? ''))?.[1];
  if (!raw) return undefined;
  try { return decodeURIComponent(raw); } catch { return undefined; }
};

function requestedRole(query: unknown, body?: unknown): string | undefined {
  const q = (query as Record<string, unknown> | undefined)?.role;
  if (typeof q === 'string' && q && q !== 'undefined') return q;
  const b = (body as Record<string, unknown> | undefined)?.role;
  return typeof b === 'string' && b ? b : undefined;
}

export default async function authRoutes(app: FastifyInstance) {
  const { config, db, tokens, mailer } = app;
  const publicRoute = { config: { auth: 'public' as const } };

  app.post('/api/auth/login_check', { ...publicRoute, schema: { tags: ['Auth'], summary: 'Log in: {token, refresh_token} (the refresh token also as an HttpOnly cookie)' } }, async (request, reply) => {
    const input = parseBody(loginBody, request.body);
    // The query's role is the portal asked for (the admin build sends ROLE_ADMIN there, ROLE_USER in the body).
    const role = requestedRole(request.query, request.body);
    const out = await login(db, tokens, { ...input, role, ip: request.ip, maxFailures: config.loginMaxFailures, refreshTtl: config.refreshTtl, bcryptRounds: config.bcryptRounds });
    reply.header('set-cookie', refreshCookie(request, out.refresh_token, config.refreshTtl));
    return out;
  });

  const refreshHandler = async (request: any, reply: any) => {
    const body = { refresh_token: request.body?.refresh_token ?? (request.query as any)?.refresh_token ?? cookieRefreshToken(request) };
    const input = parseBody(refreshBody, body);
    const out = await refresh(db, tokens, input.refresh_token, config.refreshTtl);
    reply.header('set-cookie', refreshCookie(request, out.refresh_token, config.refreshTtl));
    return out;
  };
  app.post('/api/token/refresh', { ...publicRoute, schema: { tags: ['Auth'], summary: 'Exchange a refresh token' } }, refreshHandler);
  app.post('/api/auth/refresh', { ...publicRoute, schema: { tags: ['Auth'], summary: 'Exchange a refresh token' } }, refreshHandler);

  app.get('/api/auth/info', { config: { auth: 'user' }, schema: { tags: ['Auth'], summary: 'The signed-in user with stores and terminals' } }, async (request) => {
    const auth = caller(request);
    const role = requestedRole(request.query);
    if (role && !mayEnterPortal(auth, role)) throw forbidden('Cannot login in this portal');
    return { user: await presentUser(db, auth.userId) };
  });

  // Logout answers 2xx even without a token: the old client has already dropped its cookie.
  // The refresh token comes in the body, or in the `refresh_token` cookie (ours is HttpOnly); the cookie is cleared.
  const logout = async (request: any, reply: any) => {
    const value = request.body?.refresh_token ?? cookieRefreshToken(request);
    if (typeof value === 'string' && value) await revokeRefreshToken(db, value);
    reply.header('set-cookie', refreshCookie(request, '', 0));
    return { message: 'Logged out' };
  };
  app.get('/api/auth/logout', { ...publicRoute, schema: { tags: ['Auth'], summary: 'Log out (always 200)' } }, logout);
  app.post('/api/auth/logout', { ...publicRoute, schema: { tags: ['Auth'], summary: 'Log out (always 200)' } }, logout);

  app.post('/api/auth/forgot-password', { ...publicRoute, schema: { tags: ['Auth'], summary: 'Send a reset link' } }, async (request) => {
    const input = parseBody(forgotBody, request.body);
    return requestPasswordReset(db, mailer, config.publicUrl, input.username, request.ip, request.log);
  });

  app.post('/api/auth/reset-password', { ...publicRoute, schema: { tags: ['Auth'], summary: 'Reset with a single-use token' } }, async (request) => {
    const input = parseBody(resetBody, request.body);
    return resetPassword(db, input.resetToken, input.password, config.bcryptRounds);
  });

  app.post('/api/locale', { config: { auth: 'user' }, schema: { tags: ['Auth'], summary: 'Remember the UI language' } }, async (request) => {
    const input = parseBody(localeBody, request.body);
    await db.update(userAccount).set({ locale: input.locale }).where(eq(userAccount.id, caller(request).userId));
    return { locale: input.locale };
  });

  app.post('/api/admin/profile/update', { config: { auth: 'user' }, schema: { tags: ['Auth'], summary: 'Update own profile' } }, async (request) => {
    const raw = (request.body ?? {}) as Record<string, unknown>;
    const input = parseBody(profileBody, {
      displayName: raw.displayName, email: raw.email, username: raw.username, password: raw.password,
      currentPassword: raw.currentPassword ?? raw.oldPassword,
    });
    return updateProfile(db, tokens, caller(request), input, { rounds: config.bcryptRounds, refreshTtl: config.refreshTtl });
  });
}
