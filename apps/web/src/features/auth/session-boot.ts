import { getAuthInfo } from '@/features/auth/api/get-auth-info';
import { HttpError, NetworkError, isHttpError } from '@/lib/api-client';
import { readToken } from '@/lib/cookies';
import { endSession, failSession, getSession, hasToken, startSession, subscribeSession, type User } from '@/lib/session';

let running: Promise<void> | null = null;

/** The last signed-in user (login, app start, profile update), for a start without network. */
export const LAST_USER_KEY = 'pos.lastUser';

/**
 * Spec 4 "App start": GET /auth/info, then restore store and terminal from their cookies.
 * No token or a 401 -> logged out. No answer (or 502/503/504 from a proxy) with a token whose user
 * signed in here before -> offline start with that user (issue 9: a till that was signed in
 * reloads and sells with no network). Any other failure -> the fatal start screen.
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
      else if (isUnreachable(error) && startOffline()) return;
      else failSession();
    }
  })().finally(() => {
    running = null;
  });
  return running;
}

const isUnreachable = (error: unknown) =>
  error instanceof NetworkError || (error instanceof HttpError && [502, 503, 504].includes(error.status));

/** The token's user id and name (not verified: the server does that on the next call that reaches it). */
function tokenUser(): { id: number; username: string } | null {
  const token = readToken();
  const part = token?.split('.')[1];
  if (!part) return null;
  try {
    const json = JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as { sub?: string; username?: string };
    return { id: Number(json.sub), username: String(json.username ?? '') };
  } catch {
    return null;
  }
}

function cachedUser(): User | null {
  try {
    const raw = localStorage.getItem(LAST_USER_KEY);
    return raw ? (JSON.parse(raw) as User) : null;
  } catch {
    return null;
  }
}

/** Starts with the cached user when it is the token's user; false when there is none to start with. */
function startOffline(): boolean {
  const user = cachedUser();
  const owner = tokenUser();
  if (!user || !owner || user.id !== owner.id || user.username !== owner.username) return false;
  startSession(user);
  return true;
}

// Remember the signed-in user for an offline start; forget it when the session ends (logout, 401).
let remembered: User | null = null;
if (typeof window !== 'undefined') {
  subscribeSession(() => {
    const { status, user } = getSession();
    try {
      if (status === 'authenticated' && user && user !== remembered) {
        localStorage.setItem(LAST_USER_KEY, JSON.stringify(user));
        remembered = user;
      } else if (status === 'anonymous') {
        localStorage.removeItem(LAST_USER_KEY);
        remembered = null;
      }
    } catch {
      // private mode: no offline start
    }
  });
}
