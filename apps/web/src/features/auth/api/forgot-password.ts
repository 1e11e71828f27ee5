import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { POS_ROLE } from './login';

export interface ForgotPasswordInput {
  username: string;
}

/** POST /api/auth/forgot-password {username, role} -> {message}. 422 names the username field. */
export function forgotPassword(input: ForgotPasswordInput): Promise<{ message: string }> {
  return apiFetch('/auth/forgot-password', { method: 'POST', body: { ...input, role: POS_ROLE } });
}

export function useForgotPasswordMutation() {
  return useMutation({ mutationFn: forgotPassword });
}
