import { userAccount } from '../../db/schema/index.ts';
import type { ResourceDef } from '../../resources/engine.ts';
import { bool, exact, partial } from '../../resources/filters.ts';
import { exists, sql } from 'drizzle-orm';
import { userStore } from '../../db/schema/index.ts';
import { scopes } from './shared.ts';
import { applyUserUpdate, presentUsers, userUpdateBody } from './users.service.ts';

/**
 * /api/users: an admin sees the users of their stores; anyone else only themselves (another user is
 * a 404, not a 403). Writes are admin-only.
 * No POST here: users are created at /api/admin/user/create (password hashing). PUT is a merge for
 * the toggle {isActive} and profile fields; a password sent here is ignored (use /api/admin/user/{id}).
 */
export const usersResource: ResourceDef<typeof userAccount.$inferSelect> = {
  path: 'users',
  type: 'User',
  table: userAccount,
  access: { read: 'user', write: 'users' },
  filters: {
    id: exact(userAccount.id, 'int'),
    displayName: partial(userAccount.displayName),
    username: partial(userAccount.username),
    email: partial(userAccount.email),
    isActive: bool(userAccount.isActive),
    store: (v) => {
      const id = Number(/(\d+)$/.exec(Array.isArray(v) ? v[0] : v)?.[1]);
      if (!Number.isInteger(id) || id > 2147483647) return sql`false`;
      return exists(sql`(select 1 from ${userStore} where ${userStore.userId} = ${userAccount.id} and ${userStore.storeId} = ${id})`);
    },
  },
  sorts: { id: userAccount.id, displayName: userAccount.displayName, username: userAccount.username, email: userAccount.email },
  scope: scopes.user.scope,
  present: (rows, ctx) => presentUsers(ctx.db, rows, ctx),
  update: {
    schema: userUpdateBody.omit({ password: true }),
    run: (tx, id, input, ctx) => applyUserUpdate(tx, id, input, ctx, null),
  },
};
