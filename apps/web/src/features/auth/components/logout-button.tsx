import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, type ButtonProps } from '@/components/ui/button';
import { useLogout } from '../hooks/use-logout';

/** "Logout" button for the till toolbar and headers. */
export function LogoutButton({ children, redirectTo, ...props }: Omit<ButtonProps, 'onClick' | 'loading'> & { redirectTo?: string }) {
  const { t } = useTranslation('auth');
  const logout = useLogout(redirectTo);
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="secondary"
      {...props}
      loading={busy}
      onClick={async () => {
        setBusy(true);
        try {
          await logout();
        } finally {
          setBusy(false);
        }
      }}
    >
      {children ?? t('logout')}
    </Button>
  );
}
