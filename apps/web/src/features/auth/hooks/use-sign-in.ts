import { useMutation } from '@tanstack/react-query';
import { removeTokens, saveTokens, startSession } from '@/lib/session';
import { getAuthInfo } from '../api/get-auth-info';
import { login, type LoginInput } from '../api/login';

/**
 * Spec 4 "Session": login_check -> token cookies -> /auth/info -> session with the user and no
 * store/terminal yet, so the chooser opens. The tokens stay set during the chooser (the old client
 * dropped them for a moment) so a reload there shows the chooser again instead of logging out.
 */
export function useSignIn() {
  return useMutation({
    mutationFn: async (input: LoginInput) => {
      const tokens = await login(input);
      saveTokens(tokens);
      try {
        const user = await getAuthInfo();
        startSession(user, { restore: false });
        return user;
      } catch (error) {
        removeTokens();
        throw error;
      }
    },
  });
}
