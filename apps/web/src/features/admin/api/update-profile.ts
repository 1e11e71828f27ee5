import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import type { User } from '@/lib/session';

export interface ProfileInput {
  displayName: string;
  email: string | null;
  username: string;
  /** Empty or absent keeps the current password. */
  password?: string;
}

/**
 * POST /api/admin/profile/update {displayName, email, username, password} -> {user}.
 * 422 violations name the fields (username 'This value is already used.', email, ...).
 */
export function updateProfile(input: ProfileInput): Promise<{ user: User }> {
  const body: ProfileInput = { displayName: input.displayName, email: input.email, username: input.username };
  if (input.password) body.password = input.password;
  return apiFetch('/admin/profile/update', { method: 'POST', body });
}

export function useUpdateProfileMutation() {
  return useMutation({ mutationFn: updateProfile });
}
