import { exists, inArray, sql } from 'drizzle-orm';
import { product, productTerminal, store, terminal } from '../../db/schema/index.ts';
import type { ResourceDef } from '../../resources/engine.ts';
import { bool, exact, partial } from '../../resources/filters.ts';
import { searchCondition } from '../../resources/search.ts';
import { presentStoreBrief } from '../../lib/present.ts';
import { ld, scopes, stamps } from './shared.ts';
import { createTerminal, deleteTerminal, productsByTerminal, terminalBody, terminalUpdateBody, updateTerminal } from './terminals.service.ts';

/**
 * /api/terminals: tills of a store, with their store and assigned products embedded. Toggle with
 * PUT {isActive}. The client creates and edits through /api/admin/terminal/* (same service).
 */
export const terminalsResource: ResourceDef<typeof terminal.$inferSelect> = {
  path: 'terminals',
  type: 'Terminal',
  table: terminal,
  filters: {
    id: exact(terminal.id, 'int'),
    code: partial(terminal.code),
    description: partial(terminal.description),
    isActive: bool(terminal.isActive),
    store: exact(terminal.storeId, 'int'),
    'store.id': exact(terminal.storeId, 'int'),
    'products.name': (v, _ctx, name = 'products.name') => {
      const c = searchCondition(product.name, v, name);
      return c && exists(sql`(select 1 from ${productTerminal} join ${product} on ${product.id} = ${productTerminal.productId} where ${productTerminal.otherId} = ${terminal.id} and ${c})`);
    },
  },
  sorts: {
    id: terminal.id, code: terminal.code, description: terminal.description,
    'store.name': sql`(select ${store.name} from ${store} where ${store.id} = ${terminal.storeId})`,
  },
  scope: scopes.terminal.scope,
  async present(rows, ctx) {
    const storeIds = [...new Set(rows.map((r) => r.storeId).filter((x): x is number => x != null))];
    const stores = storeIds.length ? await ctx.db.select().from(store).where(inArray(store.id, storeIds)) : [];
    const products = await productsByTerminal(ctx.db, rows.map((r) => r.id), ctx);
    return rows.map((t) => {
      const s = stores.find((x) => x.id === t.storeId);
      return {
        id: t.id, code: t.code, description: t.description, isActive: t.isActive,
        store: s ? presentStoreBrief(s) : null,
        products: (products.get(t.id) ?? []).map((p) => ld('products', 'Product', p)),
        ...stamps(t),
      };
    });
  },
  create: { schema: terminalBody, run: (tx, input, ctx) => createTerminal(tx, input, ctx) },
  update: { schema: terminalUpdateBody, run: (tx, id, input, ctx) => updateTerminal(tx, id, input, ctx) },
  remove: (tx, id) => deleteTerminal(tx, id),
};
