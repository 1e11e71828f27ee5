import { apiFetch } from '@/lib/api-client';

/** GET /api/auth/logout: always 2xx, even without a token (the cookie is already gone). */
export function logoutRequest(): Promise<unknown> {
  return apiFetch('/auth/logout');
}

