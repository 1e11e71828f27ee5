import { inArray, eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { store } from '../db/schema/index.ts';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { StoreMoneySettings } from '@pos/domain/store-settings';

/** numeric column (string) -> JSON number, as the reference client adds these with `+`. */
export function num(v: string | number | null | undefined): number | null {
  if (v === null || v === undefined) return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

/**
 * A money column shown as text (where the reference shows strings: barcode prices, …): the
 * numeric(20,3) text with the third decimal dropped when it is 0 ("2.500" -> "2.50", "1.234" stays).
 */
export function moneyText(v: string | null | undefined): string | null {
  if (v === null || v === undefined) return null;
  return /^-?\d+\.\d\d0$/.test(v) ? v.slice(0, -1) : v;
}

export const isoDate = (d: Date | null | undefined) => (d ? d.toISOString() : null);
/** The date wrapper of the reference's custom DTOs: {datetime: ISO}. */
export const dateObj = (d: Date | null | undefined) => (d ? { datetime: d.toISOString() } : null);

/** A store's money settings as every store representation carries them (docs/api.md "Store money settings"). */
export type StoreSettingsJson = StoreMoneySettings;
type SettingsRow = Pick<typeof store.$inferSelect, 'currency' | 'locale' | 'timeZone' | 'cashRoundingStep' | 'pricesIncludeTax' | 'legacyTaxBase' | 'maxDiscountPercent'>;

export function storeSettingsJson(s: SettingsRow): StoreSettingsJson {
  return {
    currency: s.currency, locale: s.locale, timeZone: s.timeZone, cashRoundingStep: s.cashRoundingStep,
    pricesIncludeTax: s.pricesIncludeTax, legacyTaxBase: s.legacyTaxBase, maxDiscountPercent: s.maxDiscountPercent,
  };
}

export interface StoreBrief extends StoreSettingsJson { '@id': string; '@type': 'Store'; id: number; name: string; location: string | null; isActive: boolean }

export function presentStoreBrief(s: typeof store.$inferSelect): StoreBrief {
  return { '@id': `/api/stores/${s.id}`, '@type': 'Store', id: s.id, name: s.name, location: s.location, isActive: s.isActive, ...storeSettingsJson(s) };
}

/** Batch-loads the stores of many owners through a link table. */
/** A table linking an entity to stores (taxes, discounts, categories...): one row per (owner, store). */
export interface StoreLinkTable extends PgTable {
  ownerId: PgColumn;
  storeId: PgColumn;
}

export async function storesByOwner(db: Db | Tx, link: StoreLinkTable, ownerIds: number[]): Promise<Map<number, StoreBrief[]>> {
  const out = new Map<number, StoreBrief[]>();
  if (!ownerIds.length) return out;
  const rows = await (db as Db).select({ ownerId: link.ownerId, s: store }).from(link as any)
    .innerJoin(store, eq(store.id, link.storeId)).where(inArray(link.ownerId, ownerIds));
  for (const r of rows as any[]) {
    const list = out.get(r.ownerId) ?? [];
    list.push(presentStoreBrief(r.s));
    out.set(r.ownerId, list);
  }
  return out;
}

/** Replaces an owner's store links, keeping links to stores the caller cannot manage. */
export async function setStoreLinks(tx: Tx, link: StoreLinkTable, ownerId: number, storeIds: number[], callerStores: number[]) {
  const existing = await (tx as any).select({ storeId: link.storeId }).from(link).where(eq(link.ownerId, ownerId));
  const keep = existing.map((r: any) => r.storeId).filter((id: number) => !callerStores.includes(id));
  const next = [...new Set([...keep, ...storeIds])];
  await (tx as any).delete(link).where(eq(link.ownerId, ownerId));
  if (next.length) await (tx as any).insert(link).values(next.map((storeId) => ({ ownerId, storeId })));
}
