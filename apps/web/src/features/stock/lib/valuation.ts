import { localParts } from '@pos/domain/calendar';
import { apiGet, downloadFile } from '@/features/list-table/api/http';
import { storeDay } from '@/features/list-table/lib/dates';

/**
 * GET /api/stock/valuation (issue 25.5, docs/api.md "Re-order, valuation and movement history"):
 * stock value at cost at a moment, from the ledger, by store, category or supplier. Values are
 * major units of the row's currency (stores of different currencies are never added up).
 */
export const VALUATION_GROUPS = ['store', 'category', 'supplier'] as const;
export type ValuationGroup = (typeof VALUATION_GROUPS)[number];

export interface ValuationRow {
  store?: { id: number; name: string | null } | null;
  category?: { id: number; name: string | null } | null;
  supplier?: { id: number; name: string | null } | null;
  currency: string;
  products: number;
  quantity: number;
  value: number;
}
export interface Valuation {
  at: string;
  group: ValuationGroup;
  store: number | null;
  rows: ValuationRow[];
  totals: Array<{ currency: string; quantity: number; value: number }>;
}

export interface ValuationFilters {
  /** A local date (YYYY-MM-DD) of `zone`: the value at the end of that day; today: now. */
  date: string;
  /** A store id, or '' for all the user's stores. */
  store: string;
  group: ValuationGroup;
}

const DAY_MS = 86_400_000;

/** Today's date (YYYY-MM-DD) in `zone`. */
export const todayIn = (zone: string, now = new Date()): string => storeDay(now, zone, 0);

/** How far `zone` is ahead of UTC at the instant `t` (ms). */
function offsetAt(zone: string, t: number): number {
  const p = localParts(new Date(t), zone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(t / 1000) * 1000;
}

/** The last millisecond of the local day `date` in `zone`, as an ISO instant (the next local midnight − 1 ms; daylight saving included). */
export function endOfLocalDay(date: string, zone: string): string {
  const nextMidnight = Date.parse(`${date}T00:00:00Z`) + DAY_MS;
  const guess = nextMidnight - offsetAt(zone, nextMidnight);
  return new Date(nextMidnight - offsetAt(zone, guess) - 1).toISOString();
}

/** The query of the filters: `at` only for a past (or future) day; today is "now". */
export function valuationQuery(f: ValuationFilters, zone: string, now = new Date()): Record<string, string> {
  const q: Record<string, string> = { group: f.group };
  if (f.store) q.store = f.store;
  if (f.date && f.date !== todayIn(zone, now)) q.at = endOfLocalDay(f.date, zone);
  return q;
}

export const fetchValuation = (query: Record<string, string>) => apiGet<Valuation>('/stock/valuation', query);

/** The same rows as CSV (the token in the header, never in the URL). */
export const downloadValuationCsv = (query: Record<string, string>) => downloadFile('/stock/valuation', 'stock-valuation.csv', { ...query, format: 'csv' });
