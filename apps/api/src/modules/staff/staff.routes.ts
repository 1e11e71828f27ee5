import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { validationError } from '@pos/domain/errors';
import { PERMISSIONS } from '@pos/domain/permissions';
import { userAccount } from '../../db/schema/index.ts';
import { caller } from '../../plugins/auth.ts';
import { parseBody, parseId, stripReadOnly } from '../../resources/engine.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import { audit } from '../../lib/audit.ts';
import { createRole, deleteRole, getRole, listRoles, presentRole, roleBody, roleUpdateBody, updateRole } from './roles.service.ts';
import { approvalBody, grantApproval, parsePin, pinBody, setPin } from './approvals.service.ts';
import auditRoutes from './audit.routes.ts';

/** Roles and permissions, manager approvals, staff PINs, the audit log (issue 21; docs/api.md "Staff and permissions"). */
export default async function staffRoutes(app: FastifyInstance) {
  const tags = ['Staff'];
  const users = { auth: 'users' as const };

  app.get('/api/permissions', { config: { auth: 'user' }, schema: { tags, summary: 'Every permission name: {list}' } }, async () => ({ list: PERMISSIONS }));

  app.get('/api/roles', { config: { auth: 'user' }, schema: { tags, summary: 'Roles (built-in and custom) with their permissions: {list, total, count}' } }, async () => {
    const list = await listRoles(app.db);
    return { list, total: list.length, count: list.length };
  });
  app.get('/api/roles/:id', { config: { auth: 'user' }, schema: { tags, summary: 'One role: {role}' } }, async (request) =>
    ({ role: presentRole(await getRole(app.db, parseId((request.params as { id: string }).id))) }));
  app.post('/api/roles', { config: users, schema: { tags, summary: 'Create a custom role (only permissions the caller holds): {role}' } }, async (request, reply) => {
    const input = parseBody(roleBody, stripReadOnly(request.body));
    const row = await createRole(app.db, caller(request), input);
    reply.status(201);
    return { role: presentRole(row) };
  });
  const update = async (request: { params: unknown; body: unknown }) => {
    const input = parseBody(roleUpdateBody, stripReadOnly(request.body));
    return { role: presentRole(await updateRole(app.db, caller(request as never), parseId((request.params as { id: string }).id), input)) };
  };
  app.put('/api/roles/:id', { config: users, schema: { tags, summary: 'Update a custom role (merge): {role}' } }, (r) => update(r));
  app.patch('/api/roles/:id', { config: users, schema: { tags, summary: 'Update a custom role (merge): {role}' } }, (r) => update(r));
  app.delete('/api/roles/:id', { config: users, schema: { tags, summary: 'Delete a custom role no user has' } }, async (request) => {
    const id = parseId((request.params as { id: string }).id);
    await deleteRole(app.db, caller(request), id);
    return { '@id': `/api/roles/${id}`, deleted: true };
  });

  app.post('/api/approvals', { config: { auth: 'user' }, schema: { tags, summary: "A manager approves one action at this till with their PIN or password: {approval (token), expiresAt, approvedBy}" } }, async (request, reply) => {
    const input = parseBody(approvalBody, request.body ?? {});
    const out = await grantApproval(app.db, caller(request), input, { ip: request.ip, rounds: app.config.bcryptRounds, maxFailures: app.config.loginMaxFailures });
    reply.status(201);
    return out;
  });

  app.put('/api/admin/profile/pin', { config: { auth: 'user' }, schema: { tags, summary: 'Set your own approval PIN (4-8 digits); needs your current password' } }, async (request) => {
    const auth = caller(request);
    const input = parseBody(pinBody, request.body ?? {});
    const pin = parsePin(input.pin);
    const [me] = await app.db.select({ password: userAccount.password }).from(userAccount).where(eq(userAccount.id, auth.userId));
    if (!input.currentPassword || !(await verifyPassword(input.currentPassword, me?.password, app.config.bcryptRounds))) {
      throw validationError([{ propertyPath: 'currentPassword', message: 'This value should be your current password.' }]);
    }
    await app.db.transaction(async (tx) => {
      await setPin(tx, auth.userId, pin, app.config.bcryptRounds);
      await audit(tx, { action: 'user.pinSet', actor: auth, entity: 'user', entityId: auth.userId, address: request.ip });
    });
    return { message: 'PIN set' };
  });

  await app.register(auditRoutes);
}
