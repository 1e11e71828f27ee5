import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { text, refList, flag } from '@pos/domain/wire-fields';
import { paymentType, paymentStore } from '../../db/schema/index.ts';
import type { ResourceDef } from '../../resources/engine.ts';
import { bool, exact, partial, storeLinkFilter, storeLinkScope } from '../../resources/filters.ts';
import { setStoreLinks, storesByOwner } from '../../lib/present.ts';
import { assertCallerStores } from '../../lib/scope.ts';
import { ADD_STORES, choice, stamps } from './shared.ts';

/** The kinds the till logic knows; the code compares `type`, never the name. */
export const PAYMENT_KINDS = ['cash', 'credit card', 'credit', 'points'] as const;

const body = z.object({
  name: text(),
  type: choice(PAYMENT_KINDS),
  /** May the received amount exceed the total (change due)? Cash yes, cards no. */
  canHaveChangeDue: flag().optional(),
  stores: refList(ADD_STORES),
  isActive: flag().optional(),
});

/** Payment types at /api/payments (@type Payment, as the reference class is named). */
export const paymentTypesResource: ResourceDef<typeof paymentType.$inferSelect> = {
  path: 'payments',
  type: 'Payment',
  table: paymentType,
  filters: {
    name: partial(paymentType.name), type: exact(paymentType.type), isActive: bool(paymentType.isActive),
    canHaveChangeDue: bool(paymentType.canHaveChangeDue), id: exact(paymentType.id, 'int'), store: storeLinkFilter(paymentStore, paymentType.id),
  },
  sorts: { id: paymentType.id, name: paymentType.name, type: paymentType.type },
  scope: storeLinkScope(paymentStore, paymentType.id),
  async present(rows, ctx) {
    const stores = await storesByOwner(ctx.db, paymentStore, rows.map((r) => r.id));
    return rows.map((p) => ({
      id: p.id, name: p.name, type: p.type, canHaveChangeDue: p.canHaveChangeDue, isActive: p.isActive,
      stores: stores.get(p.id) ?? [], ...stamps(p),
    }));
  },
  create: {
    schema: body,
    async run(tx, input, ctx) {
      assertCallerStores(ctx.auth, input.stores, 'stores');
      const [row] = await tx.insert(paymentType).values({
        name: input.name, type: input.type, canHaveChangeDue: input.canHaveChangeDue ?? false, isActive: input.isActive ?? true,
      }).returning({ id: paymentType.id });
      await setStoreLinks(tx, paymentStore, row.id, input.stores, ctx.auth.storeIds);
      return row.id;
    },
  },
  update: {
    schema: body.partial(),
    async run(tx, id, input, ctx) {
      const { stores, ...fields } = input;
      if (Object.keys(fields).length) await tx.update(paymentType).set({ ...fields, updatedAt: new Date() }).where(eq(paymentType.id, id));
      if (stores) {
        assertCallerStores(ctx.auth, stores, 'stores');
        await setStoreLinks(tx, paymentStore, id, stores, ctx.auth.storeIds);
      }
    },
  },
};
