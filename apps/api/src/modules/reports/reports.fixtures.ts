/**
 * The test shop the report tests sell in (reports.test.ts, test/report-rollups.test.ts): the two
 * stores by id, their first terminals, the cash and card payment types, and products that track no
 * stock, without tax (`plain`, by id) and one with a tax (`taxed`).
 */
import { asc } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { paymentType, product, productTax, store, terminal } from '../../db/schema/index.ts';

export async function reportShop(db: Db) {
  const [main, mall] = (await db.select().from(store).orderBy(asc(store.id))).map((s) => s.id);
  const terms = await db.select().from(terminal);
  const pays = await db.select().from(paymentType);
  const taxes = new Set((await db.select().from(productTax)).map((r) => r.productId));
  const untracked = (await db.select().from(product).orderBy(asc(product.id))).filter((p) => !p.manageInventory);
  return {
    main, mall,
    t1: terms.find((x) => x.code === 'T1')!.id,
    m1: terms.find((x) => x.code === 'M1')!.id,
    cash: pays.find((p) => p.type === 'cash')!.id,
    card: pays.find((p) => p.type === 'credit card')!.id,
    plain: untracked.filter((p) => !taxes.has(p.id)).map((p) => p.id),
    taxed: untracked.find((p) => taxes.has(p.id))!.id,
  };
}
