import { integer, jsonb, pgTable, primaryKey, serial, text, timestamp, varchar, uniqueIndex, index } from 'drizzle-orm/pg-core';
import { active, timestamps, uuidCol } from './common.ts';
import { store } from './stores.ts';
import { staffRole } from './staff.ts';

export const userAccount = pgTable('user_account', {
  id: serial('id').primaryKey(),
  username: varchar('username', { length: 180 }).notNull(),
  password: text('password').notNull(),
  displayName: varchar('display_name', { length: 255 }).notNull(),
  email: varchar('email', { length: 255 }),
  roles: jsonb('roles').$type<string[]>().notNull().default(['ROLE_USER']),
  locale: varchar('locale', { length: 8 }),
  /** Bumped by a password change or reset: access tokens signed with an older value are refused. */
  tokenVersion: integer('token_version').notNull().default(0),
  /** The user's role (issue 21.1); null = from the legacy roles (ROLE_ADMIN: Owner, else Cashier). */
  roleId: integer('role_id').references(() => staffRole.id, { onDelete: 'restrict' }),
  /** Staff PIN for approvals at the till (4-8 digits), hashed like a password. */
  pinHash: text('pin_hash'),
  ...active,
  ...timestamps,
  ...uuidCol,
}, (t) => [uniqueIndex('user_account_username_uq').on(t.username)]);

export const userStore = pgTable('user_store', {
  userId: integer('user_id').notNull().references(() => userAccount.id, { onDelete: 'cascade' }),
  storeId: integer('store_id').notNull().references(() => store.id, { onDelete: 'cascade' }),
}, (t) => [primaryKey({ columns: [t.userId, t.storeId] }), index('user_store_store_idx').on(t.storeId)]);

/** Opaque refresh tokens, stored hashed; rotated on use. */
export const refreshToken = pgTable('refresh_token', {
  id: serial('id').primaryKey(),
  tokenHash: varchar('token_hash', { length: 128 }).notNull(),
  userId: integer('user_id').notNull().references(() => userAccount.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
}, (t) => [uniqueIndex('refresh_token_hash_uq').on(t.tokenHash)]);

/** Single-use, short-lived password reset tokens (hash only). */
export const passwordReset = pgTable('password_reset', {
  id: serial('id').primaryKey(),
  tokenHash: varchar('token_hash', { length: 128 }).notNull(),
  userId: integer('user_id').notNull().references(() => userAccount.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
}, (t) => [uniqueIndex('password_reset_hash_uq').on(t.tokenHash)]);

/** Failed-login counters shared by every API process (no in-process state). */
export const loginAttempt = pgTable('login_attempt', {
  key: varchar('key', { length: 255 }).primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStart: timestamp('window_start', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
