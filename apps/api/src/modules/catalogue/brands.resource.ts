import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { text, refList, flag } from '@pos/domain/wire-fields';
import { brand, brandStore } from '../../db/schema/index.ts';
import type { ResourceDef } from '../../resources/engine.ts';
import { bool, exact, partial, storeLinkFilter, storeLinkScope } from '../../resources/filters.ts';
import { setStoreLinks, storesByOwner } from '../../lib/present.ts';
import { assertCallerStores } from '../../lib/scope.ts';
import { ADD_STORES, stamps } from './shared.ts';

const body = z.object({ name: text(), stores: refList(ADD_STORES), isActive: flag().optional() });

/** Brands: shared by the stores they are linked to (no link = every store). Toggle with PUT {isActive}. */
export const brandsResource: ResourceDef<typeof brand.$inferSelect> = {
  path: 'brands',
  type: 'Brand',
  table: brand,
  filters: { name: partial(brand.name), isActive: bool(brand.isActive), id: exact(brand.id, 'int'), store: storeLinkFilter(brandStore, brand.id) },
  sorts: { id: brand.id, name: brand.name },
  scope: storeLinkScope(brandStore, brand.id),
  async present(rows, ctx) {
    const stores = await storesByOwner(ctx.db, brandStore, rows.map((r) => r.id));
    return rows.map((b) => ({ id: b.id, name: b.name, isActive: b.isActive, stores: stores.get(b.id) ?? [], ...stamps(b) }));
  },
  create: {
    schema: body,
    async run(tx, input, ctx) {
      assertCallerStores(ctx.auth, input.stores, 'stores');
      const [row] = await tx.insert(brand).values({ name: input.name, isActive: input.isActive ?? true }).returning({ id: brand.id });
      await setStoreLinks(tx, brandStore, row.id, input.stores, ctx.auth.storeIds);
      return row.id;
    },
  },
  update: {
    schema: body.partial(),
    async run(tx, id, input, ctx) {
      const { stores, ...fields } = input;
      if (Object.keys(fields).length) await tx.update(brand).set({ ...fields, updatedAt: new Date() }).where(eq(brand.id, id));
      if (stores) {
        assertCallerStores(ctx.auth, stores, 'stores');
        await setStoreLinks(tx, brandStore, id, stores, ctx.auth.storeIds);
      }
    },
  },
};
