import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '@/lib/session';

/** Protected routes. Logged out: to the login, remembering where the user was going (state.from). */
export function RequireSession() {
  const session = useSession();
  const location = useLocation();
  if (session.ready) return <Outlet />;
  if (session.user) return null; // signed in without store/terminal: the chooser (RootLayout) is open
  return <Navigate to="/" replace state={{ from: `${location.pathname}${location.search}${location.hash}` }} />;
}

/** Where to go after login: state.from or ?from=, only same-site paths (no open redirect). */
export function returnPath(state: unknown, search: string): string | null {
  const fromState = (state as { from?: unknown } | null)?.from;
  const candidate = typeof fromState === 'string' ? fromState : new URLSearchParams(search).get('from');
  if (!candidate || !candidate.startsWith('/') || candidate.startsWith('//') || candidate.startsWith('/\\')) return null;
  return candidate === '/' ? null : candidate;
}
