import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { COOKIE, readCookie } from '@/lib/cookies';
import { endSession, removeTokens } from '@/lib/session';
import { logoutRequest } from '../api/logout';

/**
 * Spec 4 logout: drop the token cookies, tell the server with a POST that carries the refresh
 * token so it is revoked (issue 21.5; errors ignored: offline logout still logs out), end the
 * session, forget cached server data, go to '/' (the admin shell: '/admin').
 */
export function useLogout(redirectTo = '/') {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(async () => {
    const refreshToken = readCookie(COOKIE.refreshToken);
    removeTokens();
    await logoutRequest(refreshToken).catch(() => undefined);
    endSession();
    queryClient.clear();
    await navigate(redirectTo, { replace: true });
  }, [navigate, queryClient, redirectTo]);
}
