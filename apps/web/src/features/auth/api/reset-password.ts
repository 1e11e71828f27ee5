import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { POS_ROLE } from './login';

export interface ResetPasswordInput {
  password: string;
  resetToken: string;
}

/** POST /api/auth/reset-password {password, role, resetToken} -> {message}. */
export function resetPassword(input: ResetPasswordInput): Promise<{ message: string }> {
  return apiFetch('/auth/reset-password', { method: 'POST', body: { password: input.password, role: POS_ROLE, resetToken: input.resetToken } });
}

export function useResetPasswordMutation() {
  return useMutation({ mutationFn: resetPassword });
}
