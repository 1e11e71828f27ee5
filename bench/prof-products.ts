/**
 * Diagnosis (not part of `npm run bench`): where the API's own CPU goes for a product page.
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/prof-products.ts <database url> [page] [n]
 */
import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import * as schema from '../apps/api/src/db/schema/index.ts';
import type { Db } from '../apps/api/src/db/client.ts';
import { loadAuthInfo } from '../apps/api/src/plugins/auth.ts';
import { hydraCollection, listResource, parseListQuery } from '../apps/api/src/resources/engine.ts';
import { productsResource } from '../apps/api/src/modules/catalogue/products.resource.ts';

const [url, pageArg = '1000', nArg = '200'] = process.argv.slice(2);
pg.types.setTypeParser(20, (v: string) => Number(v));
const pool = new pg.Pool({ connectionString: url, max: 10, options: '-c jit=off -c random_page_cost=1.1' });
const db = drizzle(pool, { schema }) as unknown as Db;
const { rows } = await pool.query(`select id from user_account where username = 'till01'`);
const auth = (await loadAuthInfo(db, rows[0].id))!;
const q = parseListQuery({ itemsPerPage: '100', page: pageArg, isActive: 'true' });
let bytes = 0;
const t0 = performance.now();
const cpu0 = process.cpuUsage();
for (let i = 0; i < Number(nArg); i++) {
  const { members, total } = await listResource(productsResource, q, { db, auth });
  bytes += JSON.stringify(hydraCollection(productsResource, members, total, q)).length;
}
const cpu = process.cpuUsage(cpu0);
const n = Number(nArg);
console.log(`${n} pages: ${((performance.now() - t0) / n).toFixed(1)} ms each, Node CPU ${((cpu.user + cpu.system) / 1000 / n).toFixed(2)} ms per page, ${(bytes / n / 1024).toFixed(0)} KB`);
await pool.end();
