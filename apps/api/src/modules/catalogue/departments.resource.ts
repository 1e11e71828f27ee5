import { eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { text, ref, flag } from '@pos/domain/wire-fields';
import { department, store } from '../../db/schema/index.ts';
import type { ResourceDef } from '../../resources/engine.ts';
import { bool, exact, partial, storeColumnScope } from '../../resources/filters.ts';
import { presentStoreBrief } from '../../lib/present.ts';
import { assertCallerStore } from '../../lib/scope.ts';
import { stamps } from './shared.ts';

const body = z.object({ name: text(), description: text(), store: ref(), isActive: flag().optional() });

/** Departments belong to one store (a department without a store is shared). Deleted, not toggled. */
export const departmentsResource: ResourceDef<typeof department.$inferSelect> = {
  path: 'departments',
  type: 'Department',
  table: department,
  filters: {
    name: partial(department.name), description: partial(department.description), isActive: bool(department.isActive),
    id: exact(department.id, 'int'), store: exact(department.storeId, 'int'), 'store.id': exact(department.storeId, 'int'),
  },
  sorts: { id: department.id, name: department.name, description: department.description },
  scope: storeColumnScope(department.storeId),
  async present(rows, ctx) {
    const ids = [...new Set(rows.map((r) => r.storeId).filter((x): x is number => x != null))];
    const stores = ids.length ? await ctx.db.select().from(store).where(inArray(store.id, ids)) : [];
    return rows.map((d) => {
      const s = stores.find((x) => x.id === d.storeId);
      return { id: d.id, name: d.name, description: d.description, isActive: d.isActive, store: s ? presentStoreBrief(s) : null, ...stamps(d) };
    });
  },
  create: {
    schema: body,
    async run(tx, input, ctx) {
      assertCallerStore(ctx.auth, input.store, 'store');
      const [row] = await tx.insert(department).values({
        name: input.name, description: input.description, storeId: input.store, isActive: input.isActive ?? true,
      }).returning({ id: department.id });
      return row.id;
    },
  },
  update: {
    schema: body.partial(),
    async run(tx, id, input, ctx) {
      const { store: storeId, ...fields } = input;
      const set: Partial<typeof department.$inferInsert> = { ...fields };
      if (storeId !== undefined) {
        assertCallerStore(ctx.auth, storeId, 'store');
        set.storeId = storeId;
      }
      if (Object.keys(set).length) await tx.update(department).set({ ...set, updatedAt: new Date() }).where(eq(department.id, id));
    },
  },
  /** Products of a deleted department keep existing with no department (FK ON DELETE SET NULL). */
  async remove(tx, id) {
    await tx.delete(department).where(eq(department.id, id));
  },
};
