import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import type { User } from '@/lib/session';
import { POS_ROLE } from './login';

/** GET /api/auth/info?role=ROLE_USER -> {user} with stores[].terminals[]. 401 = logged out. */
export async function getAuthInfo(role: string = POS_ROLE, signal?: AbortSignal): Promise<User> {
  const data = await apiFetch<{ user: User }>('/auth/info', { query: { role }, signal });
  return data.user;
}

export const authInfoQueryKey = ['auth', 'info'] as const;

/** The signed-in user, fresh from the server (profile screens). App start calls getAuthInfo directly. */
export function useAuthInfo(enabled = true) {
  return useQuery({ queryKey: authInfoQueryKey, queryFn: ({ signal }) => getAuthInfo(POS_ROLE, signal), enabled });
}
