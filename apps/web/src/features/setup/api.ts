import { useMutation, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

export interface SetupInput {
  shopName: string;
  currency: string;
  timeZone: string;
  displayName: string;
  username: string;
  password: string;
}

/** GET /api/setup -> {needed}: true while the install has no user (first run). */
export function useSetupStatus() {
  return useQuery({
    queryKey: ['setup-status'],
    queryFn: () => apiFetch<{ needed: boolean }>('/setup'),
    retry: false,
    staleTime: 60_000,
  });
}

/** POST /api/setup: the shop and its owner; 409 once a user exists, 422 naming each bad field. */
export function useRunSetup() {
  return useMutation({ mutationFn: (input: SetupInput) => apiFetch<{ store: { id: number; name: string } }>('/setup', { method: 'POST', body: input }) });
}
