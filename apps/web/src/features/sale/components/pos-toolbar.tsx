import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';

export type ToolbarAction =
  | 'settings' | 'help' | 'mode' | 'inventory' | 'expenses' | 'closing' | 'history' | 'lookup' | 'customers' | 'taxes' | 'discounts';

const SHORTCUT: Partial<Record<ToolbarAction, string>> = {
  help: '?', expenses: 'ctrl+e', history: 'ctrl+h', customers: 'ctrl+shift+c', taxes: 'ctrl+shift+q', discounts: 'ctrl+shift+d',
};

/** The bottom toolbar: settings, help and the other dialogs; the logout button comes in as a slot. */
export function PosToolbar({ onAction, displayShortcuts, modeLabel, logoutButton }: { onAction: (a: ToolbarAction) => void; displayShortcuts: boolean; modeLabel: string; logoutButton?: ReactNode }) {
  const { t } = useTranslation('sale');
  const items: Array<[ToolbarAction, string]> = [
    ['settings', t('toolbar.settings')],
    ['help', t('toolbar.help')],
    ['mode', `${t('toolbar.mode')}: ${modeLabel}`],
    ['customers', t('toolbar.customers')],
    ['taxes', t('toolbar.taxes')],
    ['discounts', t('toolbar.discounts')],
    ['lookup', t('toolbar.lookup')],
    ['history', t('toolbar.history')],
    ['inventory', t('toolbar.inventory')],
    ['expenses', t('toolbar.expenses')],
    ['closing', t('toolbar.closing')],
  ];
  return (
    <nav className="pos-toolbar" aria-label={t('toolbar.title')}>
      {items.map(([action, label]) => (
        <Button key={action} variant="ghost" size="sm" onClick={() => onAction(action)}>
          {label}
          {displayShortcuts && SHORTCUT[action] && <kbd className="shortcut-hint">{SHORTCUT[action]}</kbd>}
        </Button>
      ))}
      <span className="grow" />
      {logoutButton}
    </nav>
  );
}
