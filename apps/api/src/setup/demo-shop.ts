import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import * as s from '../db/schema/index.ts';
import { hashPassword } from '../lib/passwords.ts';

export const DEMO_LOGINS = [
  { username: 'admin', password: 'admin', role: 'ROLE_ADMIN' },
  { username: 'cashier', password: 'cashier', role: 'ROLE_USER' },
];

const ADJECTIVES = ['Fresh', 'Classic', 'Organic', 'Premium', 'Daily', 'Golden', 'Crisp', 'Royal', 'Smart', 'Pure'];
const GROCERY = ['Milk 1L', 'Bread Loaf', 'Eggs Dozen', 'Rice 5kg', 'Sugar 1kg', 'Tea 250g', 'Coffee 200g', 'Butter 200g', 'Cheese 250g', 'Yogurt 500g'];
const HOUSEHOLD = ['Soap Bar', 'Shampoo', 'Detergent', 'Dish Liquid', 'Toothpaste', 'Tissue Box', 'Candles', 'Batteries AA', 'Light Bulb', 'Trash Bags'];
const CLOTHING = ['T-Shirt', 'Hoodie', 'Jeans', 'Sneakers', 'Cap'];

/**
 * Seeds a demo shop into an empty database (no users yet): 2 stores, 3 terminals, an admin and a
 * cashier, reference data, ~200 products (some with variants, half tracking stock) and customers.
 * Opening stock is written through the stock ledger, so the ledger sums to the stock from day one.
 */
export async function seedDemoShop(db: Db, opts: { bcryptRounds: number; log?: FastifyBaseLogger }) {
  const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(s.userAccount);
  if (Number(n) > 0) return false;
  const [adminHash, cashierHash] = await Promise.all([hashPassword('admin', opts.bcryptRounds), hashPassword('cashier', opts.bcryptRounds)]);

  await db.transaction(async (tx) => {
    const stores = await tx.insert(s.store).values([
      { name: 'Main Street', location: '12 Main Street' },
      { name: 'Harbour Mall', location: 'Harbour Mall, unit 4' },
    ]).returning();
    const [main, mall] = stores;
    await tx.insert(s.storeCounter).values(stores.map((st) => ({ storeId: st.id })));
    const terminals = await tx.insert(s.terminal).values([
      { code: 'T1', description: 'Front till', storeId: main.id },
      { code: 'M1', description: 'Mall till 1', storeId: mall.id },
      { code: 'M2', description: 'Mall till 2', storeId: mall.id },
    ]).returning();

    const users = await tx.insert(s.userAccount).values([
      { username: 'admin', password: adminHash, displayName: 'Admin', email: 'admin@example.com', roles: ['ROLE_ADMIN', 'ROLE_USER'] },
      { username: 'cashier', password: cashierHash, displayName: 'Cashier', email: 'cashier@example.com', roles: ['ROLE_USER'] },
    ]).returning();
    await tx.insert(s.userStore).values([
      { userId: users[0].id, storeId: main.id }, { userId: users[0].id, storeId: mall.id },
      { userId: users[1].id, storeId: main.id },
    ]);
    const both = (ownerId: number) => [{ ownerId, storeId: main.id }, { ownerId, storeId: mall.id }];

    const taxes = await tx.insert(s.tax).values([{ name: 'VAT', rate: '16' }, { name: 'GST', rate: '5' }]).returning();
    await tx.insert(s.taxStore).values(taxes.flatMap((t) => both(t.id)));
    const discounts = await tx.insert(s.discount).values([
      { name: 'Discount 5%', rate: '5', rateType: 'percent', scope: 'exact' },
      { name: 'Fixed 10', rate: '10', rateType: 'fixed', scope: 'exact' },
      { name: 'Open', rate: null, rateType: 'fixed', scope: 'open' },
    ]).returning();
    await tx.insert(s.discountStore).values(discounts.flatMap((d) => both(d.id)));
    const payments = await tx.insert(s.paymentType).values([
      { name: 'Cash', type: 'cash', canHaveChangeDue: true },
      { name: 'Credit Card', type: 'credit card', canHaveChangeDue: false },
      { name: 'Credit', type: 'credit', canHaveChangeDue: false },
    ]).returning();
    await tx.insert(s.paymentStore).values(payments.flatMap((p) => both(p.id)));

    const departments = await tx.insert(s.department).values([
      { name: 'Grocery', description: 'Food and drink', storeId: main.id },
      { name: 'Household', description: 'Home and cleaning', storeId: main.id },
      { name: 'Clothing', description: 'Apparel', storeId: mall.id },
    ]).returning();
    const categories = await tx.insert(s.category).values([
      { name: 'Food', type: 'product' }, { name: 'Cleaning', type: 'product' }, { name: 'Apparel', type: 'product' },
    ]).returning();
    await tx.insert(s.categoryStore).values(categories.flatMap((c) => both(c.id)));
    const brands = await tx.insert(s.brand).values([{ name: 'Acme' }, { name: 'Northwind' }, { name: 'Contoso' }]).returning();
    await tx.insert(s.brandStore).values(brands.flatMap((b) => both(b.id)));
    const suppliers = await tx.insert(s.supplier).values([
      { name: 'Fresh Farms Ltd', phone: '555-0101', email: 'orders@freshfarms.example', openingBalance: '0' },
      { name: 'CleanCo Wholesale', phone: '555-0102', email: 'sales@cleanco.example', openingBalance: '250' },
      { name: 'Threads Apparel', phone: '555-0103', email: 'hello@threads.example', openingBalance: '0' },
    ]).returning();
    await tx.insert(s.supplierStore).values(suppliers.flatMap((x) => both(x.id)));

    // ~200 products: 100 grocery, 90 household, 10 clothing items with size x colour variants.
    type P = typeof s.product.$inferInsert & { _kind: number };
    const rows: P[] = [];
    let n = 0;
    const price = (i: number) => (((i * 37) % 180) / 4 + 0.5 + (i % 3)).toFixed(2);
    for (const adj of ADJECTIVES) for (const g of GROCERY) {
      n++; rows.push({ _kind: 0, name: `${adj} ${g}`, barcode: String(5000000000000 + n), basePrice: price(n), cost: (Number(price(n)) * 0.6).toFixed(2), saleUnit: 'pcs', purchaseUnit: 'pcs', departmentId: departments[0].id, manageInventory: n % 2 === 0 });
    }
    for (const adj of ADJECTIVES.slice(0, 9)) for (const h of HOUSEHOLD) {
      n++; rows.push({ _kind: 1, name: `${adj} ${h}`, barcode: String(5000000000000 + n), basePrice: price(n), cost: (Number(price(n)) * 0.55).toFixed(2), saleUnit: 'pcs', purchaseUnit: 'box', departmentId: departments[1].id, manageInventory: n % 2 === 0 });
    }
    for (const adj of ADJECTIVES.slice(0, 2)) for (const c of CLOTHING) {
      n++; rows.push({ _kind: 2, name: `${adj} ${c}`, barcode: String(5000000000000 + n), basePrice: (20 + n % 30).toFixed(2), cost: (10 + n % 15).toFixed(2), saleUnit: 'pcs', purchaseUnit: 'pcs', departmentId: departments[2].id, manageInventory: true });
    }
    const products = await tx.insert(s.product).values(rows.map(({ _kind, ...p }) => p)).returning();
    const kindOf = (i: number) => rows[i]._kind;
    await tx.insert(s.productCategory).values(products.map((p, i) => ({ productId: p.id, otherId: categories[kindOf(i)].id })));
    await tx.insert(s.productBrand).values(products.map((p, i) => ({ productId: p.id, otherId: brands[i % 3].id })));
    await tx.insert(s.productSupplier).values(products.map((p, i) => ({ productId: p.id, otherId: suppliers[kindOf(i)].id })));
    await tx.insert(s.productTax).values(products.filter((_, i) => kindOf(i) !== 0).map((p) => ({ productId: p.id, otherId: taxes[0].id })));

    const variantRows: (typeof s.productVariant.$inferInsert)[] = [];
    products.forEach((p, i) => {
      if (kindOf(i) !== 2) return;
      let k = 0;
      for (const colour of ['Black', 'White']) for (const size of ['S', 'M', 'L']) {
        k++;
        variantRows.push({ productId: p.id, name: p.name, attributeName: 'Size-Colour', attributeValue: `${size}-${colour}`, barcode: String(BigInt(p.barcode!) * 10n + BigInt(k)), price: null, quantity: '0' });
      }
    });
    const variants = await tx.insert(s.productVariant).values(variantRows).returning();

    // Opening stock through the ledger.
    const stockRows: (typeof s.productStore.$inferInsert)[] = [];
    const moves: (typeof s.stockMovement.$inferInsert)[] = [];
    products.forEach((p, i) => {
      for (const st of kindOf(i) === 2 ? [mall] : [main, mall]) {
        const q = p.manageInventory ? String(20 + (i % 40)) : '0';
        stockRows.push({ productId: p.id, storeId: st.id, quantity: q, location: `Aisle ${1 + (i % 12)}`, reOrderLevel: '5' });
        if (p.manageInventory) moves.push({ productId: p.id, storeId: st.id, quantity: q, reason: 'opening', userId: users[0].id });
      }
    });
    // Variant stock is per store (issue 25): the clothing is stocked in the mall.
    for (const v of variants) {
      await tx.update(s.productVariant).set({ quantity: '10' }).where(sql`${s.productVariant.id} = ${v.id}`);
      moves.push({ productId: v.productId, variantId: v.id, storeId: mall.id, quantity: '10', reason: 'opening', userId: users[0].id });
    }
    if (variants.length) await tx.insert(s.productVariantStore).values(variants.map((v) => ({ variantId: v.id, storeId: mall.id, quantity: '10' })));
    await tx.insert(s.productStore).values(stockRows);
    await tx.insert(s.stockMovement).values(moves);

    // A weighed-goods barcode: 0.5 kg of the first grocery product at its own price.
    await tx.insert(s.barcode).values([{ barcode: '2100001005005', itemId: products[0].id, price: '2.50', measurement: '0.5', unit: 'kg' }]);
    // A monthly price rule example (active in December), on the last grocery product: one a till
    // test sells at its base price would cost 1.99 every December.
    await tx.insert(s.productPrice).values([{ productId: products[99].id, month: 12, basePrice: '1.99' }]);

    await tx.insert(s.customer).values([
      { name: 'Walk-in Regular', phone: '555-1000', openingBalance: '0', allowCreditSale: false },
      { name: 'Aisha Khan', phone: '555-1001', cnic: '35202-1234567-1', openingBalance: '0', allowCreditSale: true, creditLimit: '500' },
      { name: 'Bilal Ahmed', phone: '555-1002', openingBalance: '25', allowCreditSale: true, creditLimit: null },
      { name: 'Carla Diaz', phone: '555-1003', email: 'carla@example.com', openingBalance: '0', allowCreditSale: true, creditLimit: '100' },
      { name: 'Daniel Okafor', phone: '555-1004', openingBalance: '0', allowCreditSale: false },
    ]);
    await tx.insert(s.setting).values([
      { name: 'shop_name', value: 'Demo Shop', description: 'Name printed on receipts', type: 'sale_receipt' },
      { name: 'receipt_footer', value: 'Thank you for your visit', description: 'Receipt footer', type: 'sale_receipt' },
    ]);
    await tx.insert(s.device).values([{ name: 'Receipt printer', ipAddress: '127.0.0.1', port: 9100, prints: 1 }]);
    void terminals;
  });
  opts.log?.info('demo shop seeded');
  return true;
}
