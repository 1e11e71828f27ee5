import { eq, isNull, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { text, optionalRef } from '@pos/domain/wire-fields';
import { optText } from './shared.ts';
import { setting, store } from '../../db/schema/index.ts';
import type { Tx } from '../../db/client.ts';
import type { ResourceDef } from '../../resources/engine.ts';
import { exact, partial } from '../../resources/filters.ts';
import { validationError } from '@pos/domain/errors';
import { isoDate } from '../../lib/present.ts';
import { SCALE_BARCODE_SETTING, checkScaleRule } from '@pos/domain/scale-barcode-rule';

/** The setting type the receipt reads; other types are free text. */
export const SALE_RECEIPT = 'sale_receipt';

const body = z.object({
  name: text(),
  /** Stored as text; a non-string JSON value is kept as its JSON text. */
  value: z.unknown().optional().transform((v) => (v === undefined ? undefined : v === null ? null : typeof v === 'string' ? v : JSON.stringify(v))),
  description: optText(),
  type: optText(),
  /** A per-user setting; only the caller's own id (or none) may be given. */
  user: optionalRef(),
});

function ownUser(user: number | null | undefined, callerId: number) {
  if (user && user !== callerId) throw validationError([{ propertyPath: 'user', message: `'User' with ID '${user}' not found` }]);
  return user ? callerId : null;
}

/**
 * The value to store for a setting: a `scale_barcode` rule (issue 26) must be well formed (422 on
 * `value` or `value.<field>`, nothing written) and name an existing store, and is stored normalised;
 * any other setting's value is kept as sent.
 */
async function checkedValue(tx: Tx, name: string, value: string | null | undefined, self: number | null = null): Promise<string | null | undefined> {
  if (name !== SCALE_BARCODE_SETTING) return value;
  const check = checkScaleRule(value ?? null);
  if (!check.ok) throw validationError(check.violations.map((v) => ({ propertyPath: v.path ? `value.${v.path}` : 'value', message: v.message })));
  const id = check.rule.store;
  if (id !== undefined && !(await tx.select({ id: store.id }).from(store).where(eq(store.id, id)).limit(1)).length) {
    throw validationError([{ propertyPath: 'value.store', message: `'Store' with ID '${id}' not found` }]);
  }
  // One rule per store (and one for every store): the till would use whichever it found first. Writers of
  // scale rules take turns (a transaction lock), so two at once cannot both pass this check.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${SCALE_BARCODE_SETTING}))`);
  const others = await tx.select({ id: setting.id, value: setting.value }).from(setting).where(eq(setting.name, SCALE_BARCODE_SETTING));
  const taken = others.some((o) => {
    if (o.id === self) return false;
    const c = checkScaleRule(o.value ?? null);
    return c.ok && c.rule.store === id;
  });
  if (taken) throw validationError([{ propertyPath: 'value.store', message: id === undefined ? 'There is already a scale rule for every store.' : 'This store already has a scale rule.' }]);
  return JSON.stringify(check.rule);
}

/**
 * Settings: name/value pairs with a type (`sale_receipt` for receipt texts). Shared settings have no
 * user; a per-user setting is visible to that user only.
 */
export const settingsResource: ResourceDef<typeof setting.$inferSelect> = {
  path: 'settings',
  type: 'Setting',
  table: setting,
  filters: { name: partial(setting.name), type: exact(setting.type), id: exact(setting.id, 'int') },
  sorts: { id: setting.id, name: setting.name, type: setting.type },
  scope: (ctx) => or(isNull(setting.userId), eq(setting.userId, ctx.auth.userId)),
  async present(rows) {
    return rows.map((s) => ({
      id: s.id, name: s.name, value: s.value, description: s.description, type: s.type,
      user: s.userId ? `/api/users/${s.userId}` : null, createdAt: isoDate(s.createdAt), updatedAt: isoDate(s.updatedAt),
    }));
  },
  create: {
    schema: body,
    async run(tx, input, ctx) {
      const value = await checkedValue(tx, input.name, input.value);
      const [row] = await tx.insert(setting).values({
        name: input.name, value: value ?? null, description: input.description ?? null, type: input.type ?? null,
        userId: ownUser(input.user, ctx.auth.userId),
      }).returning({ id: setting.id });
      return row.id;
    },
  },
  update: {
    schema: body.partial(),
    async run(tx, id, input, ctx) {
      const { user, ...fields } = input;
      const set: Partial<typeof setting.$inferInsert> = { ...fields };
      const [old] = await tx.select({ name: setting.name, value: setting.value }).from(setting).where(eq(setting.id, id)).limit(1);
      const name = fields.name ?? old?.name;
      if (old && name === SCALE_BARCODE_SETTING && (fields.name !== undefined || fields.value !== undefined)) {
        set.value = await checkedValue(tx, name, fields.value !== undefined ? fields.value : old.value, id);
      }
      if (user !== undefined) set.userId = ownUser(user, ctx.auth.userId);
      if (Object.keys(set).length) await tx.update(setting).set({ ...set, updatedAt: new Date() }).where(eq(setting.id, id));
    },
  },
  async remove(tx, id) {
    await tx.delete(setting).where(eq(setting.id, id));
  },
};
