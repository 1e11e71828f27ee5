/**
 * Short verbs over the shell's api-client for the back office. Errors are the client's HttpError
 * (status, errorMessage, violations) or NetworkError.
 */
import { apiFetch, type Query } from '@/lib/api-client';

export type { Query };

function toQuery(query?: Query | URLSearchParams): Query | undefined {
  if (!query || !(query instanceof URLSearchParams)) return query;
  const out: Query = {};
  for (const [k, v] of query.entries()) {
    const prev = out[k];
    if (prev === undefined) out[k] = v;
    else out[k] = Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

export const apiGet = <T>(path: string, query?: Query | URLSearchParams) => apiFetch<T>(path, { query: toQuery(query) });
/** A POST; with no body it sends none (refund, restore), as the old client does. */
export const apiPost = <T>(path: string, body?: unknown) => apiFetch<T>(path, { method: 'POST', body });
export const apiPut = <T>(path: string, body: unknown) => apiFetch<T>(path, { method: 'PUT', body });
export const apiDelete = <T>(path: string) => apiFetch<T>(path, { method: 'DELETE' });
export const apiUpload = <T>(path: string, form: FormData) => apiFetch<T>(path, { method: 'POST', body: form });

/** A file download (export) with the token in the header, never as `?bearer=` (issue 21.5). */
export { downloadFile } from '@/lib/api-client';
