import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { unauthorized, forbidden, AppError } from '@pos/domain/errors';
import { BUILTIN_PERMISSIONS, PERMISSIONS, builtinOfLegacy, isPermission, type BuiltinRole, type Permission } from '@pos/domain/permissions';
import { preparedQuery, type Db } from '../db/client.ts';

/**
 * Who may call a route. Every /api route must declare one (checked at start-up): 'public', 'user'
 * (any signed-in user; the route checks finer permissions itself) or the permission it needs.
 */
export type Access = 'public' | 'user' | Permission;
const ACCESS_RULES: readonly string[] = ['public', 'user', ...PERMISSIONS];

export interface AuthInfo {
  userId: number;
  username: string;
  displayName: string;
  roles: string[];
  /** The Owner role (ROLE_ADMIN for the old client): manages owners and managers. */
  isAdmin: boolean;
  /** The user's role: built-in (owner, manager, cashier) or custom. */
  role: { id: number | null; key: BuiltinRole | 'custom'; name: string };
  /** What the role grants (issue 21.1). */
  permissions: Permission[];
  /** Stores this user belongs to: the only stores whose data they can see or change. */
  storeIds: number[];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: Access;
    /** Accept the token from ?bearer= (export opened in a new tab). */
    queryToken?: boolean;
    /**
     * (auth 'user' only) The hook checks the token but leaves the user row to the route's own first
     * statement (`tokenUser`, `callerColumns`): one round trip less on the hottest route, the sale.
     * `request.auth` stays null, so `caller()` fails closed (401) on such a route.
     */
    callerInQuery?: boolean;
  }
  interface FastifyRequest {
    auth: AuthInfo | null;
    /** The user id of a verified token on a `callerInQuery` route (not yet read from the database). */
    tokenUserId: number | null;
  }
}

/** Permissions of the back office: a role holding one of them may enter the admin portal (?role=ROLE_ADMIN). */
const BACK_OFFICE: readonly Permission[] = ['products.manage', 'purchasing', 'users', 'settings', 'audit.view', 'closing.edit', 'cost.view', 'reports.view'];

/**
 * May this user sign in to the portal the old client names (?role=ROLE_USER: the till, open to
 * everyone; ROLE_ADMIN: the back office, for an Owner and any role with a back-office permission).
 */
export function mayEnterPortal(auth: Pick<AuthInfo, 'roles' | 'permissions'>, role: string): boolean {
  if (role === 'ROLE_USER') return true;
  if (role === 'ROLE_ADMIN') return auth.roles.includes('ROLE_ADMIN') || auth.permissions.some((p) => BACK_OFFICE.includes(p));
  return auth.roles.includes(role);
}

/** How many verified tokens a token service remembers (oldest forgotten first). */
const VERIFIED_MAX = 5000;

export function createTokenService(secret: string, ttlSeconds: number) {
  const key = new TextEncoder().encode(secret);
  const verified = new Map<string, { userId: number; ver: number; exp: number | undefined }>();
  return {
    /** `ver`: the user's token version (a password change or reset bumps it, ending older tokens). */
    async sign(user: { id: number; username: string; roles: string[]; tokenVersion?: number }): Promise<string> {
      return new SignJWT({ username: user.username, roles: user.roles, ver: user.tokenVersion ?? 0 })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(user.id))
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
        .sign(key);
    },
    async verify(token: string): Promise<{ userId: number; ver: number }> {
      // A token whose signature was already checked is not checked again (HMAC through WebCrypto
      // was ~7% of a sale's API time); its expiry is, at every use. Only the fact "this exact
      // string carries a valid signature of this secret" is remembered: true in every API process,
      // so nothing here can disagree between processes; who the user is, whether they are still
      // active and their stores are read from the database at every request (loadAuthInfo).
      const known = verified.get(token);
      if (known) {
        if (known.exp !== undefined && known.exp <= Math.floor(Date.now() / 1000)) {
          verified.delete(token);
          throw unauthorized('Expired JWT Token', 'TOKEN_EXPIRED');
        }
        return { userId: known.userId, ver: known.ver };
      }
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        const userId = Number(payload.sub);
        if (!Number.isInteger(userId)) throw unauthorized('Invalid JWT Token');
        const ver = typeof payload.ver === 'number' ? payload.ver : 0;
        if (payload.nbf === undefined) {
          if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
          verified.set(token, { userId, ver, exp: payload.exp });
        }
        return { userId, ver };
      } catch (e) {
        if (e instanceof AppError) throw e;
        if (e instanceof joseErrors.JWTExpired) throw unauthorized('Expired JWT Token', 'TOKEN_EXPIRED');
        throw unauthorized('Invalid JWT Token');
      }
    },
  };
}
export type TokenService = ReturnType<typeof createTokenService>;

function extractToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header) {
    const m = /^Bearer\s+(.+)$/i.exec(header.trim());
    const value = m?.[1]?.trim();
    // The old client sends the literal "Bearer undefined" when logged out: that is anonymous.
    if (value && value !== 'undefined' && value !== 'null') return value;
  }
  if (request.routeOptions.config?.queryToken) {
    const q = (request.query as Record<string, unknown> | undefined)?.bearer;
    if (typeof q === 'string' && q && q !== 'undefined') return q;
  }
  return undefined;
}

/** The caller's row as `callerColumns` selects it. */
export interface CallerRow {
  userId: number | null; username: string; displayName: string; roles: string[]; isActive: boolean | null; storeIds: number[] | null; tokenVersion?: number;
  role?: { id: number; builtin: string | null; name: string; permissions: string[] } | null;
}

/** The select-list of the caller's row, from `user_account` aliased `alias`: read it with `callerOf`. */
export const callerColumns = (alias: string) => `${alias}.id as "userId", ${alias}.username, ${alias}.display_name as "displayName", ${alias}.roles,
       ${alias}.is_active as "isActive", ${alias}.token_version as "tokenVersion",
       (select json_build_object('id', r.id, 'builtin', r.builtin, 'name', r.name, 'permissions', r.permissions) from staff_role r where r.id = ${alias}.role_id) as "role",
       array(select us.store_id from user_store us where us.user_id = ${alias}.id order by us.store_id) as "storeIds"`;

/**
 * The caller from their row; null when there is none, they are deactivated, or (given the token's
 * `ver`) the token predates their last password change or reset (a 401).
 */
export function callerOf(user: CallerRow | undefined, tokenVersion?: number): AuthInfo | null {
  if (!user || user.userId == null || !user.isActive) return null;
  if (tokenVersion !== undefined && Number(user.tokenVersion ?? 0) !== tokenVersion) return null;
  const { role, permissions } = roleOf(user);
  return {
    userId: user.userId,
    username: user.username,
    displayName: user.displayName,
    roles: user.roles,
    isAdmin: role.key === 'owner',
    role,
    permissions,
    storeIds: (user.storeIds ?? []).map(Number),
  };
}

const BUILTIN_NAMES: Record<BuiltinRole, string> = { owner: 'Owner', manager: 'Manager', cashier: 'Cashier' };

/** A user's role and permissions: their role row, or (none set) the legacy roles: ROLE_ADMIN Owner, else Cashier. */
export function roleOf(user: Pick<CallerRow, 'roles' | 'role'>): { role: AuthInfo['role']; permissions: Permission[] } {
  const r = user.role;
  if (r && r.builtin) {
    const key = r.builtin as BuiltinRole;
    return { role: { id: r.id, key, name: r.name }, permissions: [...(BUILTIN_PERMISSIONS[key] ?? [])] };
  }
  if (r) return { role: { id: r.id, key: 'custom', name: r.name }, permissions: (r.permissions ?? []).filter(isPermission) };
  const key = builtinOfLegacy(user.roles ?? []);
  return { role: { id: null, key, name: BUILTIN_NAMES[key] }, permissions: [...BUILTIN_PERMISSIONS[key]] };
}

/** True when the caller's role grants the permission. */
export function can(auth: AuthInfo, permission: Permission): boolean {
  return auth.permissions.includes(permission);
}

/** 403 naming the permission (and the field, when a field needs it). */
export function requirePermission(auth: AuthInfo, permission: Permission, field?: string): void {
  if (can(auth, permission)) return;
  throw forbidden(field ? `${field}: changing it needs the '${permission}' permission.` : `This needs the '${permission}' permission.`);
}

/** Loads the caller fresh from the database on every request: deactivation and store changes apply at once. */
export async function loadAuthInfo(db: Db, userId: number, tokenVersion?: number): Promise<AuthInfo | null> {
  // One round trip, a prepared statement: the user and their stores (this runs on every authenticated request).
  const rows = await preparedQuery<CallerRow>(db, 'auth_user', `select ${callerColumns('u')} from user_account u where u.id = $1`, [userId]);
  return callerOf(rows[0], tokenVersion);
}

/**
 * The verified token's user id on a `callerInQuery` route; the route reads the user row itself
 * (callerColumns) and answers 401 (`invalidCaller`) when callerOf gives null. Anything the route
 * answers before that read (a 4xx on the body) must first make sure the caller is valid
 * (`requireCaller`), so an invalid caller always gets the 401 other routes give.
 */
export function tokenUser(request: FastifyRequest): number {
  if (request.tokenUserId == null) throw unauthorized();
  return request.tokenUserId;
}

export const invalidCaller = () => unauthorized('Invalid JWT Token');

/** The caller read on its own (a callerInQuery route's error path). */
export async function requireCaller(db: Db, userId: number): Promise<AuthInfo> {
  const auth = await loadAuthInfo(db, userId);
  if (!auth) throw invalidCaller();
  return auth;
}

export function registerAuth(app: FastifyInstance, db: Db, tokens: TokenService) {
  app.decorateRequest('auth', null);
  app.decorateRequest('tokenUserId', null);
  // Refuse to start with an /api route that has no access rule.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api') && !ACCESS_RULES.includes(route.config?.auth as Access)) {
      // A typo ('Admin') would otherwise fall through to the 'user' rule and open an admin route to cashiers.
      throw new Error(`Route ${route.method} ${route.url} has no access rule (config.auth must be public, user or a permission: ${PERMISSIONS.join(', ')})`);
    }
  });
  // Cost prices and margins leave the server only for 'cost.view' (object answers; the product
  // presenters that build JSON text in SQL leave them out themselves).
  app.addHook('preSerialization', async (request, _reply, payload) => {
    const auth = request.auth;
    if (!auth || can(auth, 'cost.view') || !payload || typeof payload !== 'object') return payload;
    return redactCosts(payload);
  });
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.auth;
    if (!access) return; // not an /api route (static app, 404)
    const token = extractToken(request);
    if (access === 'public') {
      if (token) {
        try {
          const { userId, ver } = await tokens.verify(token);
          request.auth = await loadAuthInfo(db, userId, ver);
        } catch { /* public routes ignore bad tokens */ }
      }
      return;
    }
    if (!token) throw unauthorized('JWT Token not found');
    const { userId, ver } = await tokens.verify(token);
    if (access === 'user' && request.routeOptions.config?.callerInQuery) {
      request.tokenUserId = userId;
      return;
    }
    const auth = await loadAuthInfo(db, userId, ver);
    if (!auth) throw invalidCaller();
    if (access !== 'user' && !can(auth, access)) throw forbidden('Access Denied.');
    request.auth = auth;
  });
}

/** Keys that carry cost prices and margins: null in answers to callers without 'cost.view'. */
const COST_KEYS = new Set(['cost', 'purchasePrice', 'margin', 'profit']);

/**
 * The JSON answer with cost and margin fields nulled (issue 21.1 'cost.view'). Copy on write: an
 * object or array is copied only when something under it changes, so an answer with no cost in it
 * (most of a cashier's) is returned as it is, without a copy of every object (allocation per sale).
 */
export function redactCosts(value: unknown): unknown {
  if (!value || typeof value !== 'object' || value instanceof Date || Buffer.isBuffer(value)) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = redactCosts(value[i]);
      if (v !== value[i]) (out ??= value.slice())[i] = v;
    }
    return out ?? value;
  }
  const o = value as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const k of Object.keys(o)) {
    const v = o[k];
    const r = COST_KEYS.has(k) ? (v != null ? null : v) : redactCosts(v);
    if (r !== v) (out ??= { ...o })[k] = r;
  }
  return out ?? o;
}

/** The authenticated caller of a non-public route. */
export function caller(request: FastifyRequest): AuthInfo {
  if (!request.auth) throw unauthorized();
  return request.auth;
}

/** 404 (not 403) when the record belongs to a store the caller is not in: no existence leak. */
export function assertStoreAccess(auth: AuthInfo, storeId: number | null | undefined, what = 'Not Found'): void {
  if (storeId == null) return;
  if (!auth.storeIds.includes(storeId)) throw new AppError(404, 'NOT_FOUND', what);
}
