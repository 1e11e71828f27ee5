import { asc, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { text, optionalText, flag } from '@pos/domain/wire-fields';
import { store, terminal, userStore, storeCounter } from '../../db/schema/index.ts';
import type { ResourceDef } from '../../resources/engine.ts';
import { bool, exact, partial } from '../../resources/filters.ts';
import { isoDate, storeSettingsJson } from '../../lib/present.ts';
import { storeSettingsFields } from '@pos/domain/store-settings';

/** `allowNegativeStock`: a stock transfer may take this store's stock below zero (modules/stock/transfers.service.ts; off by default). */
const body = z.object({ name: text(100), location: optionalText(), isActive: flag().optional(), allowNegativeStock: flag().optional(), ...storeSettingsFields });

export const storesResource: ResourceDef<typeof store.$inferSelect> = {
  path: 'stores',
  type: 'Store',
  table: store,
  filters: { name: partial(store.name), location: partial(store.location), isActive: bool(store.isActive), id: exact(store.id, 'int') },
  sorts: { id: store.id, name: store.name, location: store.location },
  // A user sees only the stores they belong to.
  scope: (ctx) => (ctx.auth.storeIds.length ? inArray(store.id, ctx.auth.storeIds) : inArray(store.id, [-1])),
  async present(rows, ctx) {
    const ids = rows.map((r) => r.id);
    const terms = ids.length ? await ctx.db.select().from(terminal).where(inArray(terminal.storeId, ids)).orderBy(asc(terminal.id)) : [];
    return rows.map((s) => ({
      id: s.id, name: s.name, location: s.location, isActive: s.isActive, ...storeSettingsJson(s), allowNegativeStock: s.allowNegativeStock,
      terminals: terms.filter((t) => t.storeId === s.id).map((t) => ({ '@id': `/api/terminals/${t.id}`, '@type': 'Terminal', id: t.id, code: t.code, description: t.description, isActive: t.isActive })),
      createdAt: isoDate(s.createdAt), updatedAt: isoDate(s.updatedAt), uuid: s.uuid,
    }));
  },
  create: {
    schema: body,
    async run(tx, input, ctx) {
      const [row] = await tx.insert(store).values({ ...input, location: input.location ?? null, isActive: input.isActive ?? true }).returning({ id: store.id });
      await tx.insert(storeCounter).values({ storeId: row.id });
      // The creator manages the store they made; otherwise it would vanish from their own lists.
      await tx.insert(userStore).values({ userId: ctx.auth.userId, storeId: row.id }).onConflictDoNothing();
      // The caller's store list was read at the start of the request: the answer must see the new store.
      if (!ctx.auth.storeIds.includes(row.id)) ctx.auth.storeIds.push(row.id);
      return row.id;
    },
  },
  update: {
    schema: body.partial(),
    async run(tx, id, input) {
      await tx.update(store).set({ ...input, updatedAt: new Date() }).where(eq(store.id, id));
    },
  },
};
