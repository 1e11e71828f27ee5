/**
 * Catalogue generator: a big shop straight into PostgreSQL, through the app's own migrations.
 *
 *   node --import tsx bench/generate-catalogue.ts [--products 100000] [--keep]
 *
 * Everything is set-based SQL (INSERT ... SELECT FROM generate_series) in one transaction per
 * table group, so 100,000 products with their variants, stock rows, ledger, taxes and categories
 * take seconds, not minutes. Ids are looked up, never assumed.
 *
 * Shop: 3 stores, 7 terminals per store (21), an admin in every store and 21 till users
 * ("till01".."till21", password "till", each in the store of their terminal), 3 taxes, 3 payment
 * types, 3 discounts, 20 departments, 60 categories, 40 brands, 20 suppliers, 1,000 customers.
 * Products: names from word lists (unique), EAN-like 13-digit barcodes (2000000000001...), a
 * fifth (every 5th) with 3-6 variants (14-digit barcodes), half tracking stock; product_store rows
 * for every product and store; opening stock written to the stock ledger so the ledger sums to the
 * stock; 90% with one tax; one or two categories, a brand and a supplier each; 1,000 weighed
 * barcodes and 500 price rules.
 */
import pg from 'pg';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { hashPassword } from '../apps/api/src/lib/passwords.ts';

export interface CatalogueStats {
  products: number; variants: number; productStores: number; movements: number;
  ms: { migrate: number; reference: number; products: number; variants: number; stock: number; links: number; analyze: number; total: number };
}

const ADJ = ['Fresh', 'Classic', 'Organic', 'Premium', 'Daily', 'Golden', 'Crisp', 'Royal', 'Smart', 'Pure', 'Natural', 'Rich', 'Light', 'Extra', 'Wild', 'Sweet', 'Spicy', 'Smoked', 'Roasted', 'Frozen', 'Chilled', 'Baked', 'Whole', 'Creamy', 'Zesty', 'Mild', 'Bold', 'Tender', 'Silky', 'Hearty', 'Soft'];
const NOUN = ['Milk', 'Bread', 'Eggs', 'Rice', 'Sugar', 'Tea', 'Coffee', 'Butter', 'Cheese', 'Yogurt', 'Soap', 'Shampoo', 'Detergent', 'Dish Liquid', 'Toothpaste', 'Tissues', 'Candles', 'Batteries', 'Light Bulb', 'Trash Bags',
  'T-Shirt', 'Hoodie', 'Jeans', 'Sneakers', 'Cap', 'Socks', 'Juice', 'Water', 'Cola', 'Biscuits', 'Crackers', 'Chocolate', 'Honey', 'Jam', 'Olive Oil', 'Vinegar', 'Pasta', 'Noodles', 'Flour', 'Oats',
  'Cereal', 'Lentils', 'Beans', 'Chickpeas', 'Tomato Sauce', 'Ketchup', 'Mustard', 'Mayonnaise', 'Pepper', 'Salt', 'Cinnamon', 'Cardamom', 'Saffron', 'Dates', 'Almonds', 'Cashews', 'Peanuts', 'Raisins', 'Chips', 'Popcorn', 'Ice Cream'];
const SIZE = ['100g', '250g', '500g', '1kg', '2kg', '5kg', '250ml', '500ml', '1L', '1.5L', '2L', 'Pack of 6', 'Family Pack'];
const BRAND = ['Acme', 'Northwind', 'Contoso', 'Fabrikam', 'Tailspin', 'Wingtip', 'Litware', 'Proseware', 'Adatum', 'Fourth Coffee', 'Lucerne', 'Margie', 'Humongous', 'Alpine', 'Bluebell', 'Cedar', 'Delta', 'Evergreen', 'Falcon', 'Granite',
  'Harbor', 'Iris', 'Juniper', 'Kestrel', 'Lotus', 'Meadow', 'Nimbus', 'Oasis', 'Pioneer', 'Quartz', 'Riverside', 'Summit', 'Thistle', 'Umber', 'Valley', 'Willow', 'Xenon', 'Yarrow', 'Zephyr', 'Aurora', 'Beacon', 'Cobalt', 'Dune'];
const VARIANTS = ['S', 'M', 'L', 'XL', 'XXL', 'XXXL'];

const arr = (xs: string[]) => `array[${xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(',')}]::text[]`;

export async function generateCatalogue(databaseUrl: string, opts: { products?: number; log?: (s: string) => void } = {}): Promise<CatalogueStats> {
  const N = opts.products ?? 100_000;
  const say = opts.log ?? (() => {});
  const t0 = performance.now();
  const ms = { migrate: 0, reference: 0, products: 0, variants: 0, stock: 0, links: 0, analyze: 0, total: 0 };
  let t = performance.now();
  const lap = (k: keyof typeof ms) => { const now = performance.now(); ms[k] = Math.round(now - t); t = now; say(`${k}: ${ms[k]} ms`); };

  const database = await openDatabase({ databaseUrl, dataDir: '' });
  await database.migrate();
  await database.close();
  lap('migrate');

  const passwordHash = await hashPassword('till', 4);
  const adminHash = await hashPassword('admin', 4);
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  const q = (text: string, values?: unknown[]) => c.query(text, values);
  try {
    await q('set synchronous_commit = off'); // the generator only; the sale bench uses the server's settings
    // ---- reference data
    await q('begin');
    await q(`insert into store (name, location) values ('Main Street', '12 Main Street'), ('Harbour Mall', 'Harbour Mall, unit 4'), ('Airport', 'Terminal 2')`);
    await q(`insert into store_counter (store_id) select id from store`);
    await q(`insert into terminal (code, description, store_id)
      select 'T' || lpad(g::text, 2, '0'), 'Till ' || g, s.id
      from generate_series(1, 21) g join (select id, row_number() over (order by id) - 1 as k from store) s on s.k = (g - 1) % 3`);
    await q(`insert into user_account (username, password, display_name, email, roles) values ('admin', $1, 'Admin', 'admin@example.com', '["ROLE_ADMIN","ROLE_USER"]')`, [adminHash]);
    await q(`insert into user_account (username, password, display_name, roles)
      select 'till' || lpad(g::text, 2, '0'), $1, 'Till ' || g, '["ROLE_USER"]' from generate_series(1, 21) g`, [passwordHash]);
    await q(`insert into user_store (user_id, store_id) select u.id, s.id from user_account u, store s where u.username = 'admin'`);
    await q(`insert into user_store (user_id, store_id)
      select u.id, t.store_id from user_account u join terminal t on t.code = 'T' || substr(u.username, 5) where u.username like 'till%'`);
    await q(`insert into tax (name, rate) values ('VAT', 16), ('GST', 5), ('Luxury', 25)`);
    await q(`insert into tax_store (tax_id, store_id) select t.id, s.id from tax t, store s`);
    await q(`insert into payment (name, type, can_have_change_due) values ('Cash', 'cash', true), ('Credit Card', 'credit card', false), ('Credit', 'credit', false)`);
    await q(`insert into payment_store (payment_id, store_id) select p.id, s.id from payment p, store s`);
    await q(`insert into discount (name, rate, rate_type, scope) values ('Discount 5%', 5, 'percent', 'exact'), ('Fixed 10', 10, 'fixed', 'exact'), ('Open', null, 'fixed', 'open')`);
    await q(`insert into discount_store (discount_id, store_id) select d.id, s.id from discount d, store s`);
    await q(`insert into department (name, description, store_id) select 'Department ' || g, 'Department number ' || g, (select min(id) from store) + (g % 3) from generate_series(1, 20) g`);
    await q(`insert into category (name, type) select 'Category ' || g, 'product' from generate_series(1, 60) g`);
    await q(`insert into category_store (category_id, store_id) select c.id, s.id from category c, store s`);
    await q(`insert into brand (name) select unnest(${arr(BRAND)})`);
    await q(`insert into brand_store (brand_id, store_id) select b.id, s.id from brand b, store s`);
    await q(`insert into supplier (name, phone, email) select 'Supplier ' || g, '555-' || lpad(g::text, 4, '0'), 'supplier' || g || '@example.com' from generate_series(1, 20) g`);
    await q(`insert into supplier_store (supplier_id, store_id) select x.id, s.id from supplier x, store s`);
    await q(`insert into customer (name, phone, opening_balance, allow_credit_sale, credit_limit)
      select 'Customer ' || g, '555-' || lpad(g::text, 6, '0'), 0, g % 4 = 0, case when g % 8 = 0 then 500 end from generate_series(1, 1000) g`);
    await q(`insert into setting (name, value, description, type) values ('shop_name', 'Bench Shop', 'Name printed on receipts', 'sale_receipt')`);
    await q('commit');
    lap('reference');

    // ---- products: g = 1..N; every 5th has variants, every 2nd tracks stock
    await q('begin');
    await q(`insert into product (name, sku, barcode, base_quantity, is_available, base_price, cost, purchase_unit, sale_unit, department_id, manage_inventory, created_at, updated_at)
      select
        b[1 + (g * 19) % ${BRAND.length}] || ' ' || a[1 + (g * 7) % ${ADJ.length}] || ' ' || n[1 + (g * 13) % ${NOUN.length}] || ' ' || s[1 + (g * 17) % ${SIZE.length}],
        'SKU-' || lpad(g::text, 6, '0'),
        (2000000000000 + g)::text,
        1, true,
        round((0.5 + ((g * 37) % 5000) / 100.0)::numeric, 2),
        round(((0.5 + ((g * 37) % 5000) / 100.0) * 0.6)::numeric, 2),
        'pcs', 'pcs',
        (select min(id) from department) + g % 20,
        g % 2 = 0,
        now() - ((g % 365) || ' days')::interval,
        now() - ((g % 365) || ' days')::interval
      from generate_series(1, $1::int) g,
        (select ${arr(ADJ)} as a, ${arr(NOUN)} as n, ${arr(SIZE)} as s, ${arr(BRAND)} as b) w`, [N]);
    await q('commit');
    lap('products');

    // ---- variants: stock per store (product_variant_store, the same figure in every store), the
    // variant's total on its row, one opening ledger row per variant and store (migration 0015)
    await q('begin');
    await q(`insert into product_variant (product_id, name, attribute_name, attribute_value, barcode, sku, price, purchase_price, quantity)
      select p.id, p.name, 'Size', (${arr(VARIANTS)})[k], p.barcode || k, p.sku || '-' || k,
        case when k > 3 then p.base_price + 1 end, p.cost,
        case when p.manage_inventory then (5 + (p.id + k) % 20) * (select count(*) from store) else 0 end
      from product p
      cross join lateral generate_series(1, 3 + ((substr(p.sku, 5)::int / 5) % 4)) k
      where substr(p.sku, 5)::int % 5 = 0`);
    await q(`insert into product_variant_store (variant_id, store_id, quantity)
      select v.id, s.id, v.quantity / (select count(*) from store) from product_variant v cross join store s where v.quantity <> 0`);
    await q(`insert into stock_movement (product_id, variant_id, store_id, quantity, reason, user_id)
      select v.product_id, v.id, vs.store_id, vs.quantity, 'opening', (select id from user_account where username = 'admin')
      from product_variant_store vs join product_variant v on v.id = vs.variant_id`);
    await q('commit');
    lap('variants');

    // ---- per-store stock rows and their opening ledger rows
    await q('begin');
    await q(`insert into product_store (product_id, store_id, quantity, location, re_order_level)
      select p.id, s.id, case when p.manage_inventory then 10 + (p.id * 7 + s.id) % 90 else 0 end, 'Aisle ' || (1 + p.id % 30), 5
      from product p cross join store s`);
    await q(`insert into stock_movement (product_id, variant_id, store_id, quantity, reason, user_id)
      select ps.product_id, null, ps.store_id, ps.quantity, 'opening', (select id from user_account where username = 'admin')
      from product_store ps where ps.quantity <> 0`);
    await q('commit');
    lap('stock');

    // ---- links: tax, categories, brand, supplier; weighed barcodes; price rules
    await q('begin');
    await q(`insert into product_tax (product_id, tax_id)
      select p.id, t.id from product p join (select id, row_number() over (order by id) - 1 as k from tax) t on t.k = p.id % 3 where p.id % 10 <> 0`);
    await q(`with c as (select id, row_number() over (order by id) - 1 as k from category)
      insert into product_category (product_id, category_id)
      select p.id, c.id from product p join c on c.k = p.id % 60
      union all
      select p.id, c.id from product p join c on c.k = (p.id + 30) % 60 where p.id % 3 = 0`);
    await q(`insert into product_brand (product_id, brand_id)
      select p.id, b.id from product p join (select id, row_number() over (order by id) - 1 as k from brand) b on b.k = p.id % ${BRAND.length}`);
    await q(`insert into product_supplier (product_id, supplier_id)
      select p.id, x.id from product p join (select id, row_number() over (order by id) - 1 as k from supplier) x on x.k = p.id % 20`);
    await q(`insert into barcode (barcode, item_id, price, measurement, unit)
      select '21' || lpad(g::text, 5, '0') || '000000', p.id, round(p.base_price / 2, 2), '0.5', 'kg'
      from generate_series(1, least(1000, $1::int)) g join product p on p.sku = 'SKU-' || lpad((g * 7)::text, 6, '0')`, [N]);
    await q(`insert into product_price (product_id, month, base_price)
      select p.id, 1 + p.id % 12, round(p.base_price * 0.9, 2) from product p where p.id % ${Math.max(1, Math.floor(N / 500))} = 1`);
    await q('commit');
    lap('links');

    await q('vacuum analyze'); // statistics + visibility map, so autovacuum does not start during the measurements
    lap('analyze');

    const one = async (sql: string) => Number((await q(sql)).rows[0].n);
    const stats: CatalogueStats = {
      products: await one('select count(*) as n from product'),
      variants: await one('select count(*) as n from product_variant'),
      productStores: await one('select count(*) as n from product_store'),
      movements: await one('select count(*) as n from stock_movement'),
      ms,
    };
    // Ledger invariant: the opening ledger sums to the stock.
    const bad = await one(`select count(*) as n from (
      select ps.product_id, ps.store_id from product_store ps
      left join (select product_id, store_id, sum(quantity) q from stock_movement where variant_id is null group by 1, 2) m
        on m.product_id = ps.product_id and m.store_id = ps.store_id
      where ps.quantity <> coalesce(m.q, 0)) x`);
    if (bad) throw new Error(`generator: ${bad} product_store rows disagree with the ledger`);
    ms.total = Math.round(performance.now() - t0);
    return stats;
  } catch (e) {
    await q('rollback').catch(() => {});
    throw e;
  } finally {
    await c.end();
  }
}

// CLI: generate into a throwaway database and print the timings.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { createThrowawayDb, log } = await import('./lib.ts');
  const i = process.argv.indexOf('--products');
  const products = i > 0 ? Number(process.argv[i + 1]) : 100_000;
  const db = await createThrowawayDb('cat');
  try {
    const stats = await generateCatalogue(db.url, { products, log: (s) => log(s) });
    log(JSON.stringify(stats));
    if (process.argv.includes('--keep')) log(`kept: ${db.url}`);
  } finally {
    if (!process.argv.includes('--keep')) await db.drop();
  }
}
