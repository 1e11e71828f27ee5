import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { text, refList, flag, BLANK } from '@pos/domain/wire-fields';
import { validationError } from '@pos/domain/errors';
import { discount, discountStore } from '../../db/schema/index.ts';
import type { ResourceDef } from '../../resources/engine.ts';
import { bool, exact, partial, storeLinkFilter, storeLinkScope } from '../../resources/filters.ts';
import { num, setStoreLinks, storesByOwner } from '../../lib/present.ts';
import { assertCallerStores } from '../../lib/scope.ts';
import { ADD_STORES, choice, stamps, optDecimal } from './shared.ts';

export const RATE_TYPES = ['percent', 'fixed'] as const;
export const DISCOUNT_SCOPES = ['exact', 'open'] as const;

const body = z.object({
  name: text(),
  /** The client drops an empty rate from the body; '' and null both mean "no rate" (open discounts). */
  rate: optDecimal({ min: 0 }),
  rateType: choice(RATE_TYPES),
  scope: choice(DISCOUNT_SCOPES),
  stores: refList(ADD_STORES),
  isActive: flag().optional(),
});

/** An exact discount needs a rate; a percent rate is at most 100. Checked on the merged record. */
function assertCoherent(d: { rate: string | null; rateType: string | null; scope: string | null }) {
  if (d.scope === 'exact' && (d.rate === null || d.rate === undefined)) throw validationError([{ propertyPath: 'rate', message: BLANK }]);
  if (d.rateType === 'percent' && d.rate !== null && Number(d.rate) > 100) {
    throw validationError([{ propertyPath: 'rate', message: 'This value should be between 0 and 100.' }]);
  }
}

/** Discount presets for the till: exact (fixed rate) or open (cashier types the amount). */
export const discountsResource: ResourceDef<typeof discount.$inferSelect> = {
  path: 'discounts',
  type: 'Discount',
  table: discount,
  filters: {
    name: partial(discount.name), rate: exact(discount.rate, 'number'), rateType: exact(discount.rateType), scope: exact(discount.scope),
    isActive: bool(discount.isActive), id: exact(discount.id, 'int'), store: storeLinkFilter(discountStore, discount.id),
  },
  sorts: { id: discount.id, name: discount.name, rate: discount.rate, rateType: discount.rateType, scope: discount.scope },
  scope: storeLinkScope(discountStore, discount.id),
  async present(rows, ctx) {
    const stores = await storesByOwner(ctx.db, discountStore, rows.map((r) => r.id));
    return rows.map((d) => ({
      id: d.id, name: d.name, rate: num(d.rate), rateType: d.rateType, scope: d.scope, isActive: d.isActive,
      stores: stores.get(d.id) ?? [], ...stamps(d),
    }));
  },
  create: {
    schema: body,
    async run(tx, input, ctx) {
      assertCallerStores(ctx.auth, input.stores, 'stores');
      const values = { name: input.name, rate: input.rate ?? null, rateType: input.rateType, scope: input.scope, isActive: input.isActive ?? true };
      assertCoherent(values);
      const [row] = await tx.insert(discount).values(values).returning({ id: discount.id });
      await setStoreLinks(tx, discountStore, row.id, input.stores, ctx.auth.storeIds);
      return row.id;
    },
  },
  update: {
    schema: body.partial(),
    async run(tx, id, input, ctx) {
      const { stores, ...fields } = input;
      if (Object.keys(fields).length) {
        const [current] = await tx.select().from(discount).where(eq(discount.id, id));
        assertCoherent({ ...current, ...fields });
        await tx.update(discount).set({ ...fields, updatedAt: new Date() }).where(eq(discount.id, id));
      }
      if (stores) {
        assertCallerStores(ctx.auth, stores, 'stores');
        await setStoreLinks(tx, discountStore, id, stores, ctx.auth.storeIds);
      }
    },
  },
};
