import { bigserial, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { timestamps } from './common.ts';

/**
 * Roles (issue 21.1). The built-in Owner, Manager and Cashier rows carry `builtin` and their
 * permissions come from @pos/domain/permissions (a new permission reaches the Owner without a
 * migration); a custom role's `permissions` are the names it grants.
 */
export const staffRole = pgTable('staff_role', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 100 }).notNull(),
  builtin: varchar('builtin', { length: 16 }),
  permissions: jsonb('permissions').$type<string[]>().notNull().default([]),
  createdById: integer('created_by_id'),
  ...timestamps,
}, (t) => [uniqueIndex('staff_role_name_uq').on(t.name), uniqueIndex('staff_role_builtin_uq').on(t.builtin)]);

/**
 * The audit log (issue 21.4): append-only. A trigger (migration 0008) refuses UPDATE, DELETE and
 * TRUNCATE; rows are written in the transaction of the action they record. Names are copied, not
 * referenced: a deleted user's actions stay readable.
 */
export const auditLog = pgTable('audit_log', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  action: varchar('action', { length: 64 }).notNull(),
  actorId: integer('actor_id'),
  actorName: varchar('actor_name', { length: 255 }),
  approverId: integer('approver_id'),
  approverName: varchar('approver_name', { length: 255 }),
  storeId: integer('store_id'),
  entity: varchar('entity', { length: 64 }),
  entityId: varchar('entity_id', { length: 64 }),
  before: jsonb('before'),
  after: jsonb('after'),
  details: jsonb('details'),
  address: varchar('address', { length: 64 }),
}, (t) => [
  index('audit_log_at_idx').on(t.at),
  index('audit_log_action_idx').on(t.action, t.at),
  index('audit_log_actor_idx').on(t.actorId, t.at),
  index('audit_log_store_idx').on(t.storeId, t.at),
]);

/**
 * A manager's approval at the till (issue 21.2): single use, short-lived, bound to the permission,
 * the store, the cashier who asked and an amount (for a discount: the percent in hundredths).
 */
export const approval = pgTable('approval', {
  id: serial('id').primaryKey(),
  tokenHash: varchar('token_hash', { length: 128 }).notNull(),
  permission: varchar('permission', { length: 64 }).notNull(),
  storeId: integer('store_id').notNull(),
  requestedById: integer('requested_by_id').notNull(),
  approvedById: integer('approved_by_id').notNull(),
  approvedByName: varchar('approved_by_name', { length: 255 }).notNull(),
  /** The largest amount covered (discount: percent x 100); null = the action itself. */
  upTo: integer('up_to'),
  note: text('note'),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
}, (t) => [uniqueIndex('approval_token_uq').on(t.tokenHash)]);
