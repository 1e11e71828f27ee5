import { apiFetch } from '@/lib/api-client';
import type { AuthTokens } from '@/lib/session';

export const POS_ROLE = 'ROLE_USER';

export interface LoginInput {
  username: string;
  password: string;
}

/** POST /api/auth/login_check?role=ROLE_USER -> {token, refresh_token}. 401 body: {message: 'Invalid credentials.'}. */
export function login(input: LoginInput, role: string = POS_ROLE): Promise<AuthTokens> {
  return apiFetch<AuthTokens>('/auth/login_check', { method: 'POST', query: { role }, body: { ...input, role: POS_ROLE } });
}

