import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch, apiUrl, downloadFile } from '@/lib/api-client';

export type BackupKind = 'daily' | 'manual' | 'pre-migration' | 'pre-restore' | 'move';
export interface BackupEntry { name: string; size: number; createdAt: string; kind: BackupKind }
export interface BackupList {
  backups: BackupEntry[];
  last: BackupEntry | null;
  directory: string;
  daily: boolean;
  retention: { daily: number; weekly: number };
}
export interface RestoreAnswer {
  restored: { createdAt: string; tables: number; rows: number; migration: string; migratedTo: string; ms: number };
  before: BackupEntry;
}

const KEY = ['admin', 'backups'] as const;

/** GET /api/admin/backups (owner only: 403 for an administrator of some stores). */
export function useBackups() {
  return useQuery({ queryKey: KEY, queryFn: ({ signal }) => apiFetch<BackupList>('/admin/backups', { signal }) });
}

/** POST /api/admin/backups -> {backup, tables, rows, migration}. */
export function useBackUpNow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<{ backup: BackupEntry; tables: number; rows: number }>('/admin/backups', { method: 'POST', body: {} }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });
}

/** POST /api/admin/backups/restore, multipart field `file`. 422 names `file` when the file cannot be restored. */
export function useRestore() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return apiFetch<RestoreAnswer>('/admin/backups/restore', { method: 'POST', body: form });
    },
    // Everything on screen may have changed: read it all again.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}

/** Where a backup file is (the link's address; it downloads with the token in the header, never in the URL: issue 21.5). */
const backupPath = (name: string) => `/admin/backups/${encodeURIComponent(name)}`;
export const backupHref = (name: string) => apiUrl(backupPath(name));
export const downloadBackup = (name: string) => downloadFile(backupPath(name), name);
