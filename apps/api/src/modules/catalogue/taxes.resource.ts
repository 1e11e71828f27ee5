import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { text, decimal, refList, flag } from '@pos/domain/wire-fields';
import { tax, taxStore } from '../../db/schema/index.ts';
import type { ResourceDef } from '../../resources/engine.ts';
import { bool, exact, partial, storeLinkFilter, storeLinkScope } from '../../resources/filters.ts';
import { isoDate, num, setStoreLinks, storesByOwner } from '../../lib/present.ts';
import { assertCallerStores } from '../../lib/scope.ts';

const body = z.object({
  name: text(),
  rate: decimal({ min: 0 }),
  stores: refList('Please add some stores'),
  isActive: flag().optional(),
});

export const taxesResource: ResourceDef<typeof tax.$inferSelect> = {
  path: 'taxes',
  type: 'Tax',
  table: tax,
  filters: {
    name: partial(tax.name), rate: exact(tax.rate, 'number'), isActive: bool(tax.isActive),
    store: storeLinkFilter(taxStore, tax.id),
  },
  sorts: { id: tax.id, name: tax.name, rate: tax.rate },
  scope: storeLinkScope(taxStore, tax.id),
  async present(rows, ctx) {
    const stores = await storesByOwner(ctx.db, taxStore, rows.map((r) => r.id));
    return rows.map((t) => ({
      id: t.id, name: t.name, rate: num(t.rate), isActive: t.isActive, stores: stores.get(t.id) ?? [],
      createdAt: isoDate(t.createdAt), updatedAt: isoDate(t.updatedAt), uuid: t.uuid,
    }));
  },
  create: {
    schema: body,
    async run(tx, input, ctx) {
      assertCallerStores(ctx.auth, input.stores, 'stores');
      const [row] = await tx.insert(tax).values({ name: input.name, rate: input.rate, isActive: input.isActive ?? true }).returning({ id: tax.id });
      await setStoreLinks(tx, taxStore, row.id, input.stores, ctx.auth.storeIds);
      return row.id;
    },
  },
  update: {
    schema: body.partial(),
    async run(tx, id, input, ctx) {
      const { stores, ...fields } = input;
      if (Object.keys(fields).length) await tx.update(tax).set({ ...fields, updatedAt: new Date() }).where(eq(tax.id, id));
      if (stores) {
        assertCallerStores(ctx.auth, stores, 'stores');
        await setStoreLinks(tx, taxStore, id, stores, ctx.auth.storeIds);
      }
    },
  },
};
