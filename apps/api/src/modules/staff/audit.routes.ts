import type { FastifyInstance } from 'fastify';
import { and, desc, eq, gte, ilike, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import { validationError, type Violation } from '@pos/domain/errors';
import { auditLog, userStore } from '../../db/schema/index.ts';
import { caller, type AuthInfo } from '../../plugins/auth.ts';
import { formatRow } from '../../lib/csv.ts';

/**
 * The audit log (issue 21.4), read-only: there is no route that changes or deletes an entry, and
 * the database refuses UPDATE, DELETE and TRUNCATE (migration 0008). Filters: who (user id or a
 * part of the name), what (action or its prefix: `sale.`), store, from/to (ISO dates). A caller
 * sees entries of their stores and store-less entries (sign-ins, users, roles) by users of their
 * stores; `format=csv` answers the same rows as CSV (every match, up to 100,000).
 */
type Query = Record<string, unknown>;
const one = (q: Query, k: string): string | undefined => {
  const v = Array.isArray(q[k]) ? (q[k] as unknown[])[0] : q[k];
  return v === undefined || v === null || v === '' ? undefined : String(v);
};

export function auditConditions(q: Query, auth: AuthInfo): SQL {
  const v: Violation[] = [];
  const conds: (SQL | undefined)[] = [];
  const stores = auth.storeIds.length ? auth.storeIds : [-1];
  conds.push(or(inArray(auditLog.storeId, stores),
    and(sql`${auditLog.storeId} is null`, or(
      sql`exists (select 1 from ${userStore} us where us.user_id = ${auditLog.actorId} and us.store_id in (${sql.join(stores.map((s) => sql`${s}`), sql`, `)}))`,
      eq(auditLog.actorId, auth.userId),
    ))));
  const who = one(q, 'who') ?? one(q, 'user');
  if (who) conds.push(/^\d{1,9}$/.test(who) ? or(eq(auditLog.actorId, Number(who)), eq(auditLog.approverId, Number(who))) : or(ilike(auditLog.actorName, `%${who}%`), ilike(auditLog.approverName, `%${who}%`)));
  const what = one(q, 'action') ?? one(q, 'what');
  if (what) conds.push(what.endsWith('.') ? ilike(auditLog.action, `${what.replace(/[\\%_]/g, '\\$&')}%`) : eq(auditLog.action, what));
  const store = one(q, 'store');
  if (store) {
    const id = Number(store.replace(/^\/api\/stores\//, ''));
    if (!Number.isInteger(id) || id < 1 || id > 2147483647) v.push({ propertyPath: 'store', message: 'This value is not a valid reference.' });
    else conds.push(eq(auditLog.storeId, id));
  }
  for (const [k, op] of [['from', gte], ['to', lt]] as const) {
    const s = one(q, k);
    if (!s) continue;
    const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(s) && k === 'to' ? new Date(`${s}T00:00:00Z`).getTime() + 86_400_000 : s);
    if (Number.isNaN(d.getTime())) v.push({ propertyPath: k, message: 'This value is not a valid date.' });
    else conds.push(op(auditLog.at, d));
  }
  if (v.length) throw validationError(v);
  return and(...conds)!;
}

type AuditRow = typeof auditLog.$inferSelect;
export const presentAudit = (r: AuditRow) => ({
  id: r.id, at: r.at.toISOString(), action: r.action,
  actor: r.actorId == null && r.actorName == null ? null : { id: r.actorId, name: r.actorName },
  approver: r.approverId == null ? null : { id: r.approverId, name: r.approverName },
  store: r.storeId, entity: r.entity, entityId: r.entityId, before: r.before, after: r.after, details: r.details, address: r.address,
});

const CSV_HEADER = ['Time', 'Action', 'User', 'Approved by', 'Store', 'Entity', 'Entity ID', 'Before', 'After', 'Details', 'Address'];
const json = (x: unknown) => (x == null ? '' : JSON.stringify(x));

export default async function auditRoutes(app: FastifyInstance) {
  const tags = ['Audit'];
  app.get('/api/audit_log', {
    config: { auth: 'audit.view' },
    schema: { tags, summary: 'Audit log, newest first: {list, total, count}; filters who, action (or prefix "sale."), store, from, to; format=csv for a CSV file' },
  }, async (request, reply) => {
    const q = (request.query ?? {}) as Query;
    const where = auditConditions(q, caller(request));
    if (one(q, 'format') === 'csv') {
      const rows = await app.db.select().from(auditLog).where(where).orderBy(desc(auditLog.at), desc(auditLog.id)).limit(100_000);
      const body = formatRow(CSV_HEADER) + rows.map((r) => formatRow([
        r.at.toISOString(), r.action, r.actorName, r.approverName, r.storeId, r.entity, r.entityId, json(r.before), json(r.after), json(r.details), r.address,
      ])).join('');
      return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="audit-log.csv"')
        .header('cache-control', 'no-store').send(body);
    }
    const limit = Math.min(500, Math.max(1, Number.parseInt(one(q, 'limit') ?? '50', 10) || 50));
    const offset = Math.max(0, Number.parseInt(one(q, 'offset') ?? '0', 10) || 0);
    const [{ total }] = await app.db.select({ total: sql<number>`count(*)::int` }).from(auditLog).where(where);
    const rows = await app.db.select().from(auditLog).where(where).orderBy(desc(auditLog.at), desc(auditLog.id)).limit(limit).offset(offset);
    return { list: rows.map(presentAudit), total: Number(total), count: rows.length };
  });
}
