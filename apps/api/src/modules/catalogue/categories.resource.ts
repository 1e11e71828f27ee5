import { eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { text, refList, flag, optionalRef } from '@pos/domain/wire-fields';
import { validationError } from '@pos/domain/errors';
import { category, categoryStore } from '../../db/schema/index.ts';
import type { ResourceDef } from '../../resources/engine.ts';
import { bool, exact, partial, storeLinkFilter, storeLinkScope } from '../../resources/filters.ts';
import { setStoreLinks, storesByOwner } from '../../lib/present.ts';
import { assertCallerStores } from '../../lib/scope.ts';
import { ADD_STORES, assertVisible, stamps } from './shared.ts';

const body = z.object({
  name: text(),
  /** Only 'product' is used; kept free text as in the reference. */
  type: z.union([z.string().trim().max(255), z.null()]).optional(),
  parent: optionalRef(),
  stores: refList(ADD_STORES),
  isActive: flag().optional(),
});

/** Product categories (type 'product'), store-linked like brands. Toggle with PUT {isActive}. */
export const categoriesResource: ResourceDef<typeof category.$inferSelect> = {
  path: 'categories',
  type: 'Category',
  table: category,
  filters: {
    name: partial(category.name), type: partial(category.type), isActive: bool(category.isActive),
    id: exact(category.id, 'int'), store: storeLinkFilter(categoryStore, category.id),
  },
  sorts: { id: category.id, name: category.name, type: category.type },
  scope: storeLinkScope(categoryStore, category.id),
  async present(rows, ctx) {
    const ids = rows.map((r) => r.id);
    const stores = await storesByOwner(ctx.db, categoryStore, ids);
    const children = ids.length ? await ctx.db.select({ id: category.id, parentId: category.parentId }).from(category).where(inArray(category.parentId, ids)) : [];
    return rows.map((c) => ({
      id: c.id, name: c.name, type: c.type, isActive: c.isActive,
      parent: c.parentId ? `/api/categories/${c.parentId}` : null,
      children: children.filter((k) => k.parentId === c.id).map((k) => `/api/categories/${k.id}`),
      stores: stores.get(c.id) ?? [], ...stamps(c),
    }));
  },
  create: {
    schema: body,
    async run(tx, input, ctx) {
      assertCallerStores(ctx.auth, input.stores, 'stores');
      if (input.parent) await assertVisible(tx, categoriesResource, input.parent, ctx, 'parent', 'Category');
      const [row] = await tx.insert(category).values({
        name: input.name, type: input.type || 'product', parentId: input.parent ?? null, isActive: input.isActive ?? true,
      }).returning({ id: category.id });
      await setStoreLinks(tx, categoryStore, row.id, input.stores, ctx.auth.storeIds);
      return row.id;
    },
  },
  update: {
    schema: body.partial(),
    async run(tx, id, input, ctx) {
      const { stores, parent, ...fields } = input;
      const set: Partial<typeof category.$inferInsert> = { ...fields };
      if (fields.type !== undefined) set.type = fields.type || 'product';
      if (parent !== undefined) {
        if (parent === id) throw validationError([{ propertyPath: 'parent', message: 'A category cannot be its own parent.' }]);
        if (parent) await assertVisible(tx, categoriesResource, parent, ctx, 'parent', 'Category');
        set.parentId = parent;
      }
      if (Object.keys(set).length) await tx.update(category).set({ ...set, updatedAt: new Date() }).where(eq(category.id, id));
      if (stores) {
        assertCallerStores(ctx.auth, stores, 'stores');
        await setStoreLinks(tx, categoryStore, id, stores, ctx.auth.storeIds);
      }
    },
  },
};
