import { apiFetch } from '@/lib/api-client';

/**
 * POST /api/auth/logout (issue 21.5): the server revokes `refresh_token` (sent in the body: the
 * cookie is dropped before the call, so an offline logout still logs out) and answers 2xx even
 * without a token. The old client's bodiless GET stays answered by the server.
 */
export function logoutRequest(refreshToken: string | undefined): Promise<unknown> {
  return apiFetch('/auth/logout', { method: 'POST', body: refreshToken ? { refresh_token: refreshToken } : {} });
}
