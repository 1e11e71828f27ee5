import { apiFetch, downloadFile } from '@/lib/api-client';

/** GET /api/reports/* (issue 25.6): amounts in minor units of `currency`. */
export const SALES_GROUPS = ['day', 'hour', 'product', 'variant', 'category', 'brand', 'cashier', 'store', 'payment', 'tax'] as const;
export type SalesGroup = (typeof SALES_GROUPS)[number];
export const REPORT_KINDS = ['sales', 'top', 'slow', 'customers', 'suppliers'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export interface ReportFilters {
  kind: ReportKind;
  from: string;
  to: string;
  /** A store id, or '' for all the user's stores. */
  store: string;
  group: SalesGroup;
}

export interface ReportRow {
  key: string | null;
  label: string;
  [figure: string]: string | number | null;
}

export interface Report {
  currency: string | null;
  digits: number;
  timeZone: string | null;
  rows: ReportRow[];
  /** Sales: how many groups there are in all (rows holds the largest 500). */
  groups?: number;
  totals?: ReportRow | Record<string, number>;
}

const PATHS: Record<ReportKind, string> = { sales: '/reports/sales', top: '/reports/products', slow: '/reports/products', customers: '/reports/customers', suppliers: '/reports/suppliers' };

function queryOf(f: ReportFilters): Record<string, string> {
  const q: Record<string, string> = {};
  if (f.store) q.store = f.store;
  if (f.kind === 'customers' || f.kind === 'suppliers') return q;
  Object.assign(q, { from: f.from, to: f.to });
  if (f.kind === 'sales') q.group = f.group;
  else Object.assign(q, { sort: f.kind, limit: '50' });
  return q;
}

export const fetchReport = (f: ReportFilters) => apiFetch<Report>(PATHS[f.kind], { query: queryOf(f) });

/** The same report as CSV (the token in the header, never in the URL). */
export const downloadReportCsv = (f: ReportFilters) => downloadFile(PATHS[f.kind], `report-${f.kind}.csv`, { ...queryOf(f), format: 'csv' });
