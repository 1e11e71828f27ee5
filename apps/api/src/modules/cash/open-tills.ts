import { and, asc, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { closing, store, terminal, userAccount } from '../../db/schema/index.ts';
import type { AuthInfo } from '../../plugins/auth.ts';

export interface OpenTill {
  closing: number;
  store: { id: number; name: string };
  terminal: { id: number; code: string } | null;
  openedAt: string;
  openedBy: string | null;
}

/**
 * GET /api/admin/closing/open (issue 23, the back office's dashboard): the tills whose day is
 * started (an opening balance saved) and not closed yet, in the caller's stores, oldest first.
 */
export async function openTills(db: Db, actor: AuthInfo): Promise<{ list: OpenTill[]; count: number }> {
  if (!actor.storeIds.length) return { list: [], count: 0 };
  const rows = await db
    .select({
      id: closing.id, dateFrom: closing.dateFrom, storeId: store.id, storeName: store.name,
      terminalId: terminal.id, terminalCode: terminal.code, openedBy: userAccount.displayName, openedByName: userAccount.username,
    })
    .from(closing)
    .innerJoin(store, eq(store.id, closing.storeId))
    .leftJoin(terminal, eq(terminal.id, closing.terminalId))
    .leftJoin(userAccount, eq(userAccount.id, closing.openedById))
    .where(and(inArray(closing.storeId, actor.storeIds), isNull(closing.closedAt), isNotNull(closing.openingBalance)))
    .orderBy(asc(closing.dateFrom), asc(closing.id));
  const list = rows.map((r) => ({
    closing: r.id,
    store: { id: r.storeId, name: r.storeName },
    terminal: r.terminalId === null ? null : { id: r.terminalId, code: r.terminalCode ?? '' },
    openedAt: r.dateFrom.toISOString(),
    openedBy: r.openedBy || r.openedByName || null,
  }));
  return { list, count: list.length };
}
