import { getAuthInfo } from '@/features/auth/api/get-auth-info';
import { isHttpError } from '@/lib/api-client';
import { endSession, failSession, getSession, hasToken, startSession } from '@/lib/session';

let running: Promise<void> | null = null;

/**
 * Spec 4 "App start": GET /auth/info, then restore store and terminal from their cookies.
 * No token or a 401 -> logged out; any other failure -> the fatal start screen.
 * Missing or stale store/terminal cookies leave the user signed in with the chooser open.
 * Runs once even when React mounts twice (StrictMode).
 */
export function bootSession(): Promise<void> {
  if (getSession().status !== 'booting') return Promise.resolve();
  running ??= (async () => {
    try {
      if (!hasToken()) {
        endSession();
        return;
      }
      startSession(await getAuthInfo());
    } catch (error) {
      if (isHttpError(error, 401)) endSession();
      else failSession();
    }
  })().finally(() => {
    running = null;
  });
  return running;
}
