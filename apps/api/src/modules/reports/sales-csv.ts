/**
 * A sales report grouped by line (product, variant, category, brand, cashier, store) as a CSV file,
 * written by PostgreSQL: the statement of the report (sales-report.ts) ends in one `string_agg` over
 * its aggregated rows instead of answering them, so the API receives the CSV's rows as one text.
 *
 * Why: a day by product at 10,000,000 orders is 32,000 rows. Answered as rows, node-pg made 350,000
 * strings of them and the route 32,000 lines; all of it lived until the last row arrived, so with the
 * server's small young generation (scripts/server-flags.mjs) it was promoted and collected again: the
 * API spent 400-460 ms of CPU per CSV, 45 % of it in the garbage collector (docs/performance.md
 * "A day's product CSV at 10,000,000 orders"). One text is one allocation.
 *
 * The file is the one `sendSalesCsv` (reports.routes.ts) writes from the rows, byte for byte
 * (report-rollups.test.ts compares this CSV of the rolled days with that one of the live days):
 * amounts rounded half away from zero to the currency's digits (parseMinor), gross = net + tax and
 * margin = net − cost of the rounded amounts, quantities without trailing zeros, key and label
 * through csv.ts formatCell's two steps (neutralised, then quoted, checked against formatCell in
 * sales-csv.test.ts), the rows in the report's order and then the total, labelled "Total".
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/raw.ts';
import { readSales, type LineGroupName, type LineTail } from './sales-report.ts';
import type { ReportScope, SalesGroup } from './reports.params.ts';

const SQL_CSV_GROUPS: ReadonlySet<SalesGroup> = new Set<LineGroupName>(['product', 'variant', 'category', 'brand', 'cashier', 'store']);
/** Whether PostgreSQL writes the group's CSV; day and hour fill the days and hours without sales in the API (sales-report.ts fill). */
export const csvInSql = (group: SalesGroup): group is LineGroupName => SQL_CSV_GROUPS.has(group);

/** JavaScript's `\s`, what formatCell's /^\s|\s$/ tests for at either end of a cell. */
const JS_SPACES = `\t\n\v\f\r \u00a0\u1680${Array.from({ length: 11 }, (_, i) => String.fromCharCode(0x2000 + i)).join('')}\u2028\u2029\u202f\u205f\u3000\ufeff`;
/** formatCell's NEEDS_APOSTROPHE (/^'*[=+\-@\t\r]/): what follows the leading apostrophes, if a spreadsheet would run it as a formula. */
const FORMULA_STARTS = '=+-@\t\r';

/** Characters of our own as a string literal of Unicode escapes (U&'\0009...'): a constant the planner sees. */
const chars = (text: string) => sql.raw(`U&'${[...text].map((c) => `\\${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}'`);
/** `c` (one character or '') is one of `set`. */
const oneOf = (c: SQL, set: string) => sql`(${c} <> '' and strpos(${chars(set)}, ${c}) > 0)`;

/** formatCell's first step: a text a spreadsheet would run as a formula gets a leading apostrophe. */
export const neutralised = (text: SQL) => sql`(case when ${oneOf(sql`left(ltrim(${text}, ''''), 1)`, FORMULA_STARTS)} then '''' || ${text} else ${text} end)`;
/** formatCell's second step: quoted when it holds a comma, quote or line break, or has a space at either end. */
export const quoted = (text: SQL) => sql`(case when strpos(${text}, ',') > 0 or strpos(${text}, '"') > 0 or strpos(${text}, chr(10)) > 0 or strpos(${text}, chr(13)) > 0
    or ${oneOf(sql`left(${text}, 1)`, JS_SPACES)} or ${oneOf(sql`right(${text}, 1)`, JS_SPACES)} then '"' || replace(${text}, '"', '""') || '"' else ${text} end)`;

/**
 * The CSV's rows (each ending in CRLF) from `agg` and the group's names: the rows in the report's
 * order, then the total. The key is an id or "product-variant" ids: digits and an inner hyphen, which
 * formatCell leaves as they are. Each step of the label is a subquery of its own (`offset 0`), so it
 * is computed once per row: pulled up, the planner copies an expression into every place that
 * names it, and the steps nested cost PostgreSQL 150-250 ms more for a day's 32,000 products.
 */
function csvTail(digits: number, withCost: boolean): LineTail {
  const places = sql.raw(String(Math.trunc(digits))); // an integer of the currency table
  const money = (v: SQL) => sql`coalesce(round(${v}, ${places}), round(0, ${places}))`;
  return (d) => {
    const cells = [
      sql`n.key`, quoted(sql`s.label`), sql`coalesce(g.orders, 0)::text`, sql`coalesce(trim_scale(g.quantity), 0)::text`,
      sql`n.net::text`, sql`n.tax::text`, sql`(n.net + n.tax)::text`, sql`n.discount::text`, sql`n.refunds::text`,
      ...(withCost ? [sql`n.cost::text`, sql`(n.net - n.cost)::text`] : []),
    ];
    return sql`
    select coalesce(string_agg(${sql.join(cells, sql` || ',' || `)} || E'\\r\\n', '' order by g.total, ${d.order}), '') as csv
    from agg g ${d.join ?? sql``}
      cross join lateral (select case when g.total = 0 then coalesce((${d.key})::text, '') else '' end as key,
        case when g.total = 0 then coalesce((${d.label})::text, '') else 'Total' end as label,
        ${money(sql`g.net`)} as net, ${money(sql`g.tax`)} as tax, ${money(sql`g.discount`)} as discount, ${money(sql`g.refunds`)} as refunds,
        ${money(sql`g.cost`)} as cost offset 0) n
      cross join lateral (select ${neutralised(sql`n.label`)} as label offset 0) s`;
  };
}

/** The CSV's rows of a line group's sales report, read as salesReport reads its rows (readSales). */
export async function salesCsv(db: Db, scope: ReportScope, group: LineGroupName, withCost: boolean): Promise<string> {
  const rows = rowsOf<{ csv: string }>(await readSales(db, scope, group, null, { tail: csvTail(scope.digits, withCost) }));
  return rows[0]?.csv ?? '';
}
