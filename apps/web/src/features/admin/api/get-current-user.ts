import { apiFetch } from '@/lib/api-client';
import type { User } from '@/lib/session';

export const ADMIN_ROLE = 'ROLE_ADMIN';

/**
 * GET /api/auth/info?role=<role> -> {user}. The admin shell asks with ROLE_ADMIN (ref. client 1.3):
 * 401 = logged out, 403 {message} = signed in, but not an administrator.
 */
export async function getCurrentUser(role: string, signal?: AbortSignal): Promise<User> {
  const data = await apiFetch<{ user: User }>('/auth/info', { query: { role }, signal });
  return data.user;
}
