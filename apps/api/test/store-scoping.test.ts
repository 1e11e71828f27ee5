/**
 * Issue 24, "past one machine": every table that belongs to a store carries its store id, and the
 * code that touches it names the store. The path this keeps open (read replicas, then Citus with
 * store-owned tables distributed by store) is ARCHITECTURE.md "Past one PostgreSQL".
 *
 * Part 1 reads the live catalogue of a migrated database (pg_catalog) and holds it against the
 * explicit classification below: a table nobody classified fails, a store-owned table without a
 * NOT NULL store column, its foreign key to store(id) or an index led by it fails (unless a listed
 * exception says why), and the facts a Citus split must change first (children without the store
 * column, unique keys and foreign keys without it) are pinned, so a change to them is seen.
 * Part 2 scans apps/api/src/modules (not tests): a function that reads or writes a store-owned
 * table must name the store (store_id / storeId(s) / an assert…Store… check) or be listed with its
 * reason. That is a function-level check: it proves the store is in the code path (a filter or an
 * access check after a by-id load), not that each SQL statement filters by it; the behavioural
 * guard (another store's records are a 404 on every item route) is test/security/authz-matrix.test.ts
 * "store isolation". The last tests break the schema and the source on purpose: every check bites.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from './helpers.ts';
import type { Database } from '../src/db/client.ts';

/** Rows belong to one store: distributed by this column under Citus. Exceptions say why. */
interface Owned { column: string; nullable?: string; noForeignKey?: string; noIndex?: string }
const STORE_OWNED: Record<string, Owned> = {
  order: { column: 'store_id' },
  product_store: { column: 'store_id' },
  closing: { column: 'store_id' },
  expense: { column: 'store_id', nullable: 'nullable since the legacy model; createExpense always sets it (assertCallerStore)' },
  purchase: { column: 'store_id' },
  purchase_order: { column: 'store_id' },
  stock_transfer: { column: 'from_store_id' },
  stock_count: { column: 'store_id' },
  stock_adjustment: { column: 'store_id' },
  stock_doc_counter: { column: 'store_id' },
  store_counter: { column: 'store_id' },
  product_variant_store: { column: 'store_id' },
  report_day_sales: { column: 'store_id' },
  report_day_done: { column: 'store_id' },
  stock_movement: {
    column: 'store_id',
    nullable: 'rows written before migration 0015 by a shop without any store keep no store; every writer since sets it (lib/stock.ts moveStock throws without one)',
    noIndex: 'read by product first: (product_id, store_id) and (product_id, created_at, id)',
  },
  approval: {
    column: 'store_id',
    noForeignKey: 'a single-use token living minutes; it names the store and consumeApproval filters on it',
    noIndex: 'found by its unique token hash (approval_token_uq), then checked against the store',
  },
};

/** Rows whose store is their parent's: reached by a NOT NULL foreign key; none carries the store column yet. */
const CHILDREN: Record<string, { parent: string; via: string }> = {
  order_product: { parent: 'order', via: 'orderId' },
  order_payment: { parent: 'order', via: 'order_id' },
  order_discount: { parent: 'order', via: 'orderId' },
  order_tax: { parent: 'order', via: 'orderId' },
  order_product_tax: { parent: 'order_product', via: 'order_product_id' },
  receipt_email: { parent: 'order', via: 'order_id' },
  purchase_item: { parent: 'purchase', via: 'purchase_id' },
  purchase_item_variant: { parent: 'purchase_item', via: 'purchase_item_id' },
  purchase_order_item: { parent: 'purchase_order', via: 'purchase_order_id' },
  purchase_order_item_variant: { parent: 'purchase_order_item', via: 'purchase_order_item_id' },
  stock_transfer_line: { parent: 'stock_transfer', via: 'transfer_id' },
  stock_count_line: { parent: 'stock_count', via: 'count_id' },
  stock_adjustment_line: { parent: 'stock_adjustment', via: 'adjustment_id' },
};

/** Shared by every store (Citus reference tables, or plain tables on the coordinator): why. */
const SHARED: Record<string, string> = {
  store: 'the stores themselves',
  terminal: 'a store\'s tills: small configuration read with every sale (store_id nullable: an unassigned terminal)',
  product: 'catalogue (store_ids is a trigger-kept copy of product_store, migration 0002)',
  product_variant: 'catalogue (its quantity is stock shared by all stores)',
  product_price: 'catalogue', barcode: 'catalogue', category: 'catalogue', brand: 'catalogue', tax: 'catalogue',
  discount: 'catalogue', payment: 'catalogue (payment types)', supplier: 'catalogue', device: 'printers',
  department: 'catalogue (store_id nullable: an optional home store)',
  product_category: 'catalogue link', product_brand: 'catalogue link', product_supplier: 'catalogue link',
  product_tax: 'catalogue link', product_terminal: 'catalogue link',
  category_store: 'which stores offer a catalogue entry', brand_store: 'which stores offer a catalogue entry',
  tax_store: 'which stores offer a catalogue entry', discount_store: 'which stores offer a catalogue entry',
  payment_store: 'which stores offer a catalogue entry', supplier_store: 'which stores offer a catalogue entry',
  customer: 'customers are shop-wide (store_id nullable: the registering store, per-store visibility is a setting)',
  customer_payment: 'a customer\'s ledger across stores: no store column (order_id optional)',
  customer_credit: 'a customer\'s credit across stores, kept by triggers (migration 0021)',
  customer_credit_day: 'a customer\'s credit per day across stores, kept by triggers (migration 0021)',
  supplier_payment: 'a supplier\'s ledger across stores: no store column (purchase_id optional)',
  user_account: 'staff', user_store: 'which stores a user works in', staff_role: 'staff',
  refresh_token: 'sessions', password_reset: 'sessions', login_attempt: 'sessions',
  setting: 'shop settings',
  audit_log: 'append-only shop log; store_id is a nullable label (user, role and setting changes have none), no foreign key so entries outlive a store',
  print_job: 'print queue per device (devices have no store; a drawer job has no order)',
  list_index: 'cache of product-list pages (migration 0003)', list_version: 'one counter row for the product lists',
};

/** Unique keys of store-owned tables without the store column: Citus needs it in each (or the key dropped). */
const UNIQUE_WITHOUT_STORE = [
  'approval.approval_pkey', 'approval.approval_token_uq', 'closing.closing_pkey', 'expense.expense_pkey', 'order.order_client_id_uq',
  'order.order_pkey', 'product_store.product_store_pkey', 'product_variant_store.product_variant_store_pkey', 'purchase.purchase_pkey', 'purchase.purchase_po_uq',
  'purchase_order.purchase_order_pkey', 'stock_adjustment.stock_adjustment_pkey', 'stock_count.stock_count_pkey',
  'stock_movement.stock_movement_pkey', 'stock_transfer.stock_transfer_pkey',
];
/** Foreign keys into store-owned or child tables that Citus refuses as they are (a shared table pointing at one, or a key without the store column). */
const FOREIGN_KEYS_WITHOUT_STORE = [
  ...Object.entries(CHILDREN).map(([c, { parent, via }]) => `${c}.${via} -> ${parent}`),
  'customer_payment.order_id -> order', 'print_job.order_id -> order', 'purchase.purchase_order_id -> purchase_order',
  'supplier_payment.purchase_id -> purchase',
].sort();

/**
 * Module functions that touch a store-owned table without naming the store, and why that is right.
 * Most are a load by primary key whose caller checks the store (under Citus: a multi-shard lookup).
 */
const UNSCOPED_FUNCTIONS: Record<string, string> = {
  'cash/expenses.service.ts deleteExpense': 'loadVisible(db, id, actor) checked the store first; the update is by id',
  'catalogue/terminals.service.ts deleteTerminal': 'counts the terminal\'s sales and closings in any store',
  'catalogue/users.service.ts deleteUser': 'counts the user\'s expenses and purchases in any store',
  'customers/customer.erase.ts eraseCustomer': 'erasure blanks the name on the customer\'s sales in every store',
  'purchasing/purchase-orders.service.ts deletePurchaseOrder': 'lockEditablePo(tx, id, actor) checked the store',
  'purchasing/purchasing.present.ts purchaseBriefs': 'presents purchases named by supplier payments (a supplier spans stores)',
  'purchasing/purchasing.present.ts loadPurchase': 'by id; callers check the store (assertStoreAccess)',
  'sales/order.presenter.ts presentOrderById': 'by id; "store scoping is the caller\'s job"',
  'sales/sale-read.ts loadOriginal': 'by id inside a return whose caller checked the store',
  'sales/sales.service.ts dispatchOrder': 'lockOrder(tx, id, actor) checked the store',
  'stock/transfers.service.ts lockTransfer': 'by id; callers check the sending or receiving store',
};

// ---------------------------------------------------------------------------------------------
// The catalogue and the checks (functions of it, so the last test can run them on a broken schema).

interface Catalog {
  tables: string[];
  columns: Map<string, Map<string, { notNull: boolean }>>;
  fks: { table: string; cols: string[]; ref: string; refCols: string[] }[];
  indexes: { table: string; name: string; unique: boolean; keys: string[] }[];
}

async function readCatalog(c: pg.Client): Promise<Catalog> {
  const attnames = (rel: string, nums: string) =>
    `array(select coalesce(a.attname::text, '(expression)') from unnest(${nums}) with ordinality k(n, i) left join pg_attribute a on a.attrelid = ${rel} and a.attnum = k.n order by k.i)`;
  const tables = (await c.query(`select relname from pg_class where relnamespace = 'public'::regnamespace and relkind in ('r', 'p') order by 1`)).rows.map((r) => r.relname as string);
  const columns = new Map<string, Map<string, { notNull: boolean }>>();
  for (const r of (await c.query(`select table_name, column_name, is_nullable from information_schema.columns where table_schema = 'public'`)).rows) {
    if (!columns.has(r.table_name)) columns.set(r.table_name, new Map());
    columns.get(r.table_name)!.set(r.column_name, { notNull: r.is_nullable === 'NO' });
  }
  const fks = (await c.query(`select s.relname as table, ${attnames('f.conrelid', 'f.conkey')} as cols, d.relname as ref, ${attnames('f.confrelid', 'f.confkey')} as "refCols"
    from pg_constraint f join pg_class s on s.oid = f.conrelid join pg_class d on d.oid = f.confrelid
    where f.contype = 'f' and f.connamespace = 'public'::regnamespace`)).rows;
  const indexes = (await c.query(`select t.relname as table, i.relname as name, x.indisunique as unique, ${attnames('x.indrelid', 'x.indkey::int2[]')} as cols, x.indnkeyatts as n
    from pg_index x join pg_class t on t.oid = x.indrelid join pg_class i on i.oid = x.indexrelid
    where t.relnamespace = 'public'::regnamespace`)).rows.map((r) => ({ table: r.table, name: r.name, unique: r.unique, keys: (r.cols as string[]).slice(0, r.n) }));
  return { tables, columns, fks, indexes };
}

const CLASSES = { STORE_OWNED, CHILDREN, SHARED } as const;

function classificationProblems(cat: Catalog): string[] {
  const out: string[] = [];
  for (const t of cat.tables) {
    const where = Object.entries(CLASSES).filter(([, list]) => t in list).map(([name]) => name);
    if (where.length === 0) {
      out.push(`table ${t} is not classified: add it to STORE_OWNED (rows of one store: give it a NOT NULL store_id with a foreign key and an index), `
        + `CHILDREN (its store is its parent's) or SHARED (with why) in test/store-scoping.test.ts, and see ARCHITECTURE.md "Past one PostgreSQL"`);
    }
    if (where.length > 1) out.push(`table ${t} is in ${where.join(' and ')}: one class only`);
  }
  for (const [name, list] of Object.entries(CLASSES)) {
    for (const t of Object.keys(list)) if (!cat.tables.includes(t)) out.push(`${name} lists ${t}, which no longer exists`);
  }
  return out;
}

function ownedProblems(cat: Catalog): string[] {
  const out: string[] = [];
  for (const [t, o] of Object.entries(STORE_OWNED)) {
    const col = cat.columns.get(t)?.get(o.column);
    if (!col) { out.push(`${t}: no ${o.column} column (a store-owned table carries its store)`); continue; }
    if (!col.notNull && !o.nullable) out.push(`${t}.${o.column} is nullable`);
    if (col.notNull && o.nullable) out.push(`${t}.${o.column} is NOT NULL now: drop its 'nullable' exception`);
    const fk = cat.fks.some((f) => f.table === t && f.cols.join() === o.column && f.ref === 'store' && f.refCols.join() === 'id');
    if (!fk && !o.noForeignKey) out.push(`${t}.${o.column} has no foreign key to store(id)`);
    if (fk && o.noForeignKey) out.push(`${t}.${o.column} has a foreign key now: drop its 'noForeignKey' exception`);
    const led = cat.indexes.some((i) => i.table === t && i.keys[0] === o.column);
    if (!led && !o.noIndex) out.push(`${t}: no index whose first column is ${o.column}`);
    if (led && o.noIndex) out.push(`${t} has an index led by ${o.column} now: drop its 'noIndex' exception`);
  }
  return out;
}

function childProblems(cat: Catalog): string[] {
  const out: string[] = [];
  for (const [t, { parent, via }] of Object.entries(CHILDREN)) {
    if (!cat.fks.some((f) => f.table === t && f.cols.join() === via && f.ref === parent && f.refCols.join() === 'id')) out.push(`${t}.${via}: no foreign key to ${parent}(id)`);
    if (!cat.columns.get(t)?.get(via)?.notNull) out.push(`${t}.${via} is nullable: a child must always have its parent`);
    let root = parent;
    for (let hops = 0; root in CHILDREN && hops < 5; hops++) root = CHILDREN[root].parent;
    if (!(root in STORE_OWNED)) out.push(`${t}: its parent chain ends at ${root}, which is not store-owned`);
    const own = [...(cat.columns.get(t)?.keys() ?? [])].filter((c) => /store/.test(c));
    if (own.length) out.push(`${t} now carries ${own.join(', ')}: move it to STORE_OWNED (checked there) and update ARCHITECTURE.md "Past one PostgreSQL"`);
  }
  return out;
}

function uniqueWithoutStore(cat: Catalog): string[] {
  return cat.indexes.filter((i) => i.unique && STORE_OWNED[i.table] && !i.keys.includes(STORE_OWNED[i.table].column))
    .map((i) => `${i.table}.${i.name}`).sort();
}

function foreignKeysWithoutStore(cat: Catalog): string[] {
  const storeCol = (t: string) => STORE_OWNED[t]?.column;
  return cat.fks.filter((f) => (f.ref in STORE_OWNED || f.ref in CHILDREN)
    && !(storeCol(f.table) && storeCol(f.ref) && f.cols.includes(storeCol(f.table)!) && f.refCols.includes(storeCol(f.ref)!)))
    .map((f) => `${f.table}.${f.cols.join('+')} -> ${f.ref}`).sort();
}

// ---------------------------------------------------------------------------------------------
// The source scan.

const MODULES = path.resolve(import.meta.dirname, '../src/modules');
const OWNED_SQL = new RegExp(`\\b(from|join|update|into)\\s+(${Object.keys(STORE_OWNED).map((t) => (t === 'order' ? '"order"' : t)).join('|')})\\b`, 'i');
const NAMES_STORE = /store_?ids?\b|assert\w*Store/i;
const DRIZZLE_CALLS = new Set(['from', 'update', 'insert', 'delete', 'innerJoin', 'leftJoin', 'rightJoin', 'fullJoin']);

/** Top-level functions (and top-level const statements) that touch a store-owned table and never name the store. */
function unscopedFunctions(file: string, source: string, tableOf: Map<string, string>): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const local = new Map<string, string>();
  for (const s of sf.statements) {
    if (!ts.isImportDeclaration(s) || !/db\/schema/.test((s.moduleSpecifier as ts.StringLiteral).text)) continue;
    const named = s.importClause?.namedBindings;
    if (named && ts.isNamedImports(named)) {
      for (const e of named.elements) {
        const table = tableOf.get((e.propertyName ?? e.name).text);
        if (table && table in STORE_OWNED) local.set(e.name.text, table);
      }
    }
  }
  const out: string[] = [];
  for (const s of sf.statements) {
    if (!ts.isFunctionDeclaration(s) && !ts.isVariableStatement(s) && !ts.isClassDeclaration(s)) continue;
    let touches = false;
    const visit = (n: ts.Node) => {
      if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && DRIZZLE_CALLS.has(n.expression.name.text)
        && n.arguments[0] && ts.isIdentifier(n.arguments[0]) && local.has(n.arguments[0].text)) touches = true;
      if ((ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateHead(n) || ts.isTemplateMiddle(n) || ts.isTemplateTail(n) || ts.isStringLiteral(n))
        && OWNED_SQL.test(n.text)) touches = true;
      ts.forEachChild(n, visit);
    };
    visit(s);
    if (touches && !NAMES_STORE.test(s.getText(sf))) {
      const name = ts.isVariableStatement(s) ? s.declarationList.declarations.map((d) => d.name.getText(sf)).join(',') : s.name?.text;
      out.push(`${file} ${name}`);
    }
  }
  return out;
}

async function schemaTableNames(): Promise<Map<string, string>> {
  const { getTableName, isTable } = await import('drizzle-orm');
  const schema: Record<string, unknown> = await import('../src/db/schema/index.ts');
  return new Map(Object.entries(schema).filter(([, v]) => isTable(v)).map(([k, v]) => [k, getTableName(v as any)]));
}

// ---------------------------------------------------------------------------------------------

let database: Database;
let client: pg.Client;
let catalog: Catalog;

beforeAll(async () => {
  database = await openTestDatabase('empty');
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  catalog = await readCatalog(client);
}, 60_000);

afterAll(async () => {
  await client?.end();
  await database?.close();
});

describe('the schema: every table classified, store-owned tables carry their store', () => {
  it('every table of the public schema is in exactly one class', () => {
    expect(catalog.tables.length).toBeGreaterThan(50);
    expect(classificationProblems(catalog)).toEqual([]);
  });

  it('every store-owned table has its NOT NULL store column, a foreign key to store(id) and an index led by it (or a listed reason)', () => {
    expect(ownedProblems(catalog)).toEqual([]);
  });

  it('every child reaches a store-owned root through a NOT NULL foreign key, and none carries the store column yet', () => {
    expect(childProblems(catalog)).toEqual([]);
  });

  it('what a Citus split must change first is pinned: unique keys and foreign keys without the store column', () => {
    expect(uniqueWithoutStore(catalog)).toEqual(UNIQUE_WITHOUT_STORE);
    expect(foreignKeysWithoutStore(catalog)).toEqual(FOREIGN_KEYS_WITHOUT_STORE);
  });
});

describe('the code: every module function on a store-owned table names the store', () => {
  it('only the listed functions touch a store-owned table without naming the store', async () => {
    const tableOf = await schemaTableNames();
    const files = (fs.readdirSync(MODULES, { recursive: true }) as string[])
      .filter((f) => f.endsWith('.ts') && !/\.(test|fixtures)\.ts$/.test(f)).sort();
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((f) => unscopedFunctions(f.split(path.sep).join('/'), fs.readFileSync(path.join(MODULES, f), 'utf8'), tableOf));
    expect(found.sort(), 'a new function reading a store-owned table must filter by its store or check it (or be listed with why)')
      .toEqual(Object.keys(UNSCOPED_FUNCTIONS).sort());
  });
});

describe('the checks bite', () => {
  it('a broken schema is reported: unclassified table, nullable, dropped column, foreign key, index; a child with a store column', async () => {
    await client.query('begin');
    try {
      await client.query('create table unclassified_thing (id int)');
      await client.query('alter table purchase alter column store_id drop not null');
      await client.query('alter table stock_movement alter column store_id set not null');
      await client.query('alter table closing drop column store_id');
      const { rows } = await client.query(`select conname from pg_constraint where conrelid = 'stock_count'::regclass and contype = 'f'
        and pg_get_constraintdef(oid) like 'FOREIGN KEY (store_id)%'`);
      await client.query(`alter table stock_count drop constraint ${rows[0].conname}`);
      await client.query('drop index expense_store_created_idx');
      await client.query('alter table order_product add column store_id int');
      const broken = await readCatalog(client);
      expect(classificationProblems(broken)).toEqual([expect.stringMatching(/^table unclassified_thing is not classified: add it to STORE_OWNED/)]);
      expect(ownedProblems(broken)).toEqual([
        'closing: no store_id column (a store-owned table carries its store)',
        'expense: no index whose first column is store_id',
        'purchase.store_id is nullable',
        'stock_count.store_id has no foreign key to store(id)',
        "stock_movement.store_id is NOT NULL now: drop its 'nullable' exception",
      ]);
      expect(childProblems(broken)).toEqual([expect.stringMatching(/^order_product now carries store_id: move it to STORE_OWNED/)]);
      expect(uniqueWithoutStore(broken)).toContain('closing.closing_pkey');
    } finally {
      await client.query('rollback');
    }
    expect(classificationProblems(await readCatalog(client))).toEqual([]);
  });

  it('a function reading a store-owned table without its store is reported, through an import alias or raw SQL', async () => {
    const tableOf = await schemaTableNames();
    const src = [
      "import { order as sales, closing, product } from '../../db/schema/index.ts';",
      'export async function leak(db: any, id: number) { return db.select().from(sales).where(eq(sales.id, id)); }',
      'export async function scoped(db: any, id: number, storeId: number) { return db.select().from(closing).where(and(eq(closing.id, id), eq(closing.storeId, storeId))); }',
      'export async function raw(db: any) { return db.execute(sql`select count(*) from stock_movement where product_id = 1`); }',
      'export async function catalogue(db: any) { return db.select().from(product); }',
    ].join('\n');
    expect(unscopedFunctions('x/leak.ts', src, tableOf)).toEqual(['x/leak.ts leak', 'x/leak.ts raw']);
  });
});
