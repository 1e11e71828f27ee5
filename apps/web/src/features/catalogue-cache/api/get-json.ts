import { apiFetch } from '@/lib/api-client';

/** GET of a path that already carries its query string (the loader builds the spec's exact URLs). */
export const getJson = <T,>(path: string): Promise<T> => apiFetch<T>(path);
