import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import type { Store, Terminal, User } from '@/lib/session';

/** Spec 9: one store with one terminal is picked after this delay. */
export const AUTO_SELECT_DELAY_MS = 300;

export interface StoreTerminalChooserProps {
  user: User;
  onSelect: (store: Store, terminal: Terminal) => void;
  /** Way out when there is nothing to choose (no store or no terminal). */
  onLogout?: () => void;
}

/**
 * Spec 2.3: the forced modal after login (no Esc, no overlay, no close button). Several stores:
 * pick one, then a terminal; one store: preselected; one store with one terminal: picks itself.
 */
export function StoreTerminalChooser({ user, onSelect, onLogout }: StoreTerminalChooserProps) {
  const { t } = useTranslation('auth');
  const stores = user.stores;
  const single = stores.length === 1 ? stores[0] : null;
  const [store, setStore] = useState<Store | null>(single);

  const auto = single && single.terminals.length === 1 ? { store: single, terminal: single.terminals[0] } : null;
  useEffect(() => {
    if (!auto) return;
    const timer = setTimeout(() => onSelect(auto.store, auto.terminal), AUTO_SELECT_DELAY_MS);
    return () => clearTimeout(timer);
    // Once per user, not on every onSelect identity.
  }, [user]);

  const title = store ? t('chooser.chooseTerminal') : t('chooser.chooseStore');
  return (
    <Dialog open closable={false} title={title} size="md">
      {!store ? (
        stores.length === 0 ? (
          <p>{t('chooser.noStores')}</p>
        ) : (
          <div className="choice-grid">
            {stores.map((s) => (
              <Button key={s.id} variant="secondary" size="lg" onClick={() => setStore(s)}>
                {s.name}
              </Button>
            ))}
          </div>
        )
      ) : (
        <>
          {store.terminals.length === 0 ? (
            <p>{t('chooser.noTerminals')}</p>
          ) : (
            <div className="choice-grid">
              {store.terminals.map((terminal) => (
                <Button key={terminal.id} variant="secondary" size="lg" onClick={() => onSelect(store, terminal)}>
                  {terminal.code}
                </Button>
              ))}
            </div>
          )}
          {stores.length > 1 && (
            <p className="text-muted" style={{ marginBlockStart: 'var(--space-4)' }}>
              {store.name} ·{' '}
              <Button variant="link" onClick={() => setStore(null)}>{t('chooser.otherStore')}</Button>
            </p>
          )}
        </>
      )}
      {onLogout && (stores.length === 0 || store?.terminals.length === 0) && (
        <div className="row" style={{ marginBlockStart: 'var(--space-4)' }}>
          <Button variant="secondary" onClick={onLogout}>{t('logout')}</Button>
        </div>
      )}
    </Dialog>
  );
}
