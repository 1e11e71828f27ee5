import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, type ButtonProps } from '@/components/ui/button';
import { useLogout } from '../hooks/use-logout';

/** "Logout" button for the till toolbar and headers. */
export function LogoutButton({ children, ...props }: Omit<ButtonProps, 'onClick' | 'loading'>) {
  const { t } = useTranslation('auth');
  const logout = useLogout();
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
