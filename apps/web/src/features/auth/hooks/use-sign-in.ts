import { useMutation } from '@tanstack/react-query';
import { removeTokens, saveTokens, startSession } from '@/lib/session';
import { getAuthInfo } from '../api/get-auth-info';
import { POS_ROLE, login, type LoginInput } from '../api/login';

/**
 * Spec 4 "Session": login_check -> token cookies -> /auth/info -> session with the user and no
 * store/terminal yet, so the chooser opens. `role` is the portal: ROLE_USER (till) or ROLE_ADMIN
 * (admin shell, which asks login_check and auth/info with ?role=ROLE_ADMIN; ref. client 1.3). The tokens stay set during the chooser (the old client
 * dropped them for a moment) so a reload there shows the chooser again instead of logging out.
 */
export function useSignIn(role: string = POS_ROLE) {
  return useMutation({
    mutationFn: async (input: LoginInput) => {
      const tokens = await login(input, role);
      saveTokens(tokens);
      try {
        const user = await getAuthInfo(role);
        startSession(user, { restore: false });
        return user;
      } catch (error) {
        removeTokens();
        throw error;
      }
    },
  });
}
