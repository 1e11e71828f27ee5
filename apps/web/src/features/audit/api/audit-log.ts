import { apiFetch, downloadFile } from '@/lib/api-client';

/** One entry of GET /api/audit_log (issue 21.4). */
export interface AuditEntry {
  id: number;
  at: string;
  action: string;
  actor: { id: number | null; name: string | null } | null;
  approver: { id: number; name: string | null } | null;
  store: number | null;
  entity: string | null;
  entityId: string | null;
  before: unknown;
  after: unknown;
  details: unknown;
  address: string | null;
}

export interface AuditFilters { who?: string; action?: string; store?: string; from?: string; to?: string }

const clean = (f: AuditFilters) => Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined && v !== ''));

export function listAudit(filters: AuditFilters, page: { limit: number; offset: number }) {
  return apiFetch<{ list: AuditEntry[]; total: number; count: number }>('/audit_log', { query: { ...clean(filters), ...page } });
}

/** Downloads the filtered log as CSV (the token in the header, never in the URL). */
export const downloadAuditCsv = (filters: AuditFilters) => downloadFile('/audit_log', 'audit-log.csv', { ...clean(filters), format: 'csv' });
