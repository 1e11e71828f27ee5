import { isHttpError } from '@/lib/api-client';
import { endSession, failSession, getSession, hasToken, startSession, type User } from '@/lib/session';
import { ADMIN_ROLE, getCurrentUser } from './api/get-current-user';

const TILL_ROLE = 'ROLE_USER';

const BACK_OFFICE = ['products.manage', 'purchasing', 'stock.adjust', 'users', 'settings', 'audit.view', 'closing.edit', 'cost.view', 'reports.view'];

/** May this user use the admin shell? An Owner (ROLE_ADMIN), or a role with a back-office permission. */
export const isAdmin = (user: User | null | undefined): boolean =>
  !!user && (user.roles.includes(ADMIN_ROLE) || (user.permissions ?? []).some((p) => BACK_OFFICE.includes(p)));

let running: Promise<void> | null = null;

/**
 * App start for the admin shell (the admin build of ref. client 1.3): GET /auth/info?role=ROLE_ADMIN.
 * No token or 401 -> logged out; any other failure -> the fatal start screen. A 403 means the token
 * belongs to a till user: the admin shell shows its login, but the till session is left alone (the
 * user is still restored, with the till's role, so going back to /pos does not log them out).
 * Shares the one session of lib/session with the till: one sign-in, one set of cookies.
 */
export function bootAdminSession(): Promise<void> {
  if (getSession().status !== 'booting') return Promise.resolve();
  running ??= (async () => {
    try {
      if (!hasToken()) {
        endSession();
        return;
      }
      startSession(await getCurrentUser(ADMIN_ROLE));
    } catch (error) {
      if (isHttpError(error, 403)) {
        try {
          startSession(await getCurrentUser(TILL_ROLE));
        } catch (again) {
          if (isHttpError(again, 401)) endSession();
          else failSession();
        }
      } else if (isHttpError(error, 401)) endSession();
      else failSession();
    }
  })().finally(() => {
    running = null;
  });
  return running;
}
