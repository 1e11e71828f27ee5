import { Suspense, lazy, useEffect } from 'react';
import { Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { FullScreenSpinner } from '@/components/ui/spinner';
import { StoreTerminalChooser } from '@/features/auth/components/store-terminal-chooser';
import { useLogout } from '@/features/auth/hooks/use-logout';
import { usePreferences } from '@/features/sale/preferences-store';
import { resetSession, selectStoreTerminal, useSession } from '@/lib/session';
import { bootSession } from '@/features/auth/session-boot';

// Touch mode's keyboard downloads only when touch mode is on (the sign-in page's JavaScript, issue 24).
const TouchKeyboard = lazy(() => import('@/features/touch/components/touch-keyboard').then((m) => ({ default: m.TouchKeyboard })));

/**
 * The layout of every route: waits for app start, shows the fatal start screen, and opens the
 * store/terminal chooser whenever a signed-in user has none (after login, or lost cookies).
 */
export function RootLayout() {
  const session = useSession();
  const logout = useLogout();
  const enableTouch = usePreferences((p) => p.enableTouch);

  useEffect(() => {
    if (session.status === 'booting') void bootSession();
  }, [session.status]);

  if (session.status === 'booting') return <FullScreenSpinner />;
  if (session.status === 'failed') return <InitError />;
  return (
    <>
      <Outlet />
      {session.user && !session.ready && (
        <StoreTerminalChooser user={session.user} onSelect={selectStoreTerminal} onLogout={() => void logout()} />
      )}
      {/* Touch mode (Settings > General): bigger targets and the on-screen keyboard on every screen. */}
      {enableTouch && (
        <Suspense fallback={null}>
          <TouchKeyboard enabled />
        </Suspense>
      )}
    </>
  );
}

function InitError() {
  const { t } = useTranslation('common');
  return (
    <main className="fullscreen-center" role="alert">
      <h1>{t('initError')}</h1>
      <Button onClick={resetSession}>{t('retry')}</Button>
    </main>
  );
}
