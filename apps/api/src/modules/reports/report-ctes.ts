/**
 * The live source of every sales report: the orders of a range in the chosen stores and their lines
 * (sales-report.ts, products-report.ts; rollups.ts sums the same per closed day).
 */
import { sql, type SQL } from 'drizzle-orm';
import { SETTLED_STATUSES } from '@pos/domain/schemas/sale';
import type { ReportScope } from './reports.params.ts';

/**
 * The orders whose sale stands (SETTLED_STATUSES; a return is a Completed order with
 * returned_from_id), as a PostgreSQL array literal for `status = any(…::text[])`.
 */
export const SETTLED_ARRAY = `{${SETTLED_STATUSES.map((s) => `"${s}"`).join(',')}}`;

/**
 * The orders of the range in the chosen stores (`o`), with their local time, and their lines (`l`).
 * Each store's bounds are instants given as parameters (computed from its zone beforehand), so
 * the planner sees the range and reads the order index (store_id, created_at) for a day's orders
 * instead of guessing a third of the table. `perOrder` (the roll-ups, over up to a week): each
 * order's lines through the order's index (a lateral that is not flattened), never a hash of all lines.
 */
export function rangeCtes(scope: Pick<ReportScope, 'bounds'>, opts: { perOrder?: boolean } = {}): SQL {
  // No bounds (every day of the range read from roll-ups): no order.
  const inRange = scope.bounds.length
    ? sql.join(scope.bounds.map((b) => sql`(o.store_id = ${b.id} and o.created_at >= ${b.lo}::timestamptz and o.created_at < ${b.hi}::timestamptz)`), sql` or `)
    : sql`false`;
  return sql`o as (
      select o.id, o.store_id, o.user_id, (o.created_at at time zone s.time_zone) as local, o.returned_from_id is not null as is_return
      from "order" o join store s on s.id = o.store_id
      where (${inRange}) and o.status = any(${SETTLED_ARRAY}::text[]) and not o.is_suspended
    ),
    l as (
      select o.*, op.id as line_id, op.product_id, op.variant_id, op.quantity, op.taxable, op.taxes_total,
        op.discount + op.order_discount as discount, op.cost * op.quantity as cost
      from o ${opts.perOrder ? sql`cross join lateral (select * from order_product op where op."orderId" = o.id offset 0) op` : sql`join order_product op on op."orderId" = o.id`}
    )`;
}
