import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { Tabs } from '@/components/ui/tabs';
import { useSession } from '@/lib/session';
import { tabContent, tabsFor, type SettingsTab } from './settings-tabs-registry.tsx';
import '@/features/list-table/backoffice.css';

export { SETTINGS_TABS, type SettingsTab } from './settings-tabs-registry.tsx';

export interface SettingsModalProps {
  open: boolean;
  onClose: () => void;
}

/** Settings (full size): Profile, General and every back-office list of spec 2.5. */
export function SettingsModal({ open, onClose }: SettingsModalProps) {
  const { t } = useTranslation('backoffice');
  const [tab, setTab] = useState<SettingsTab>('profile');
  const { user } = useSession();
  const tabs = tabsFor(user);
  return (
    <Dialog open={open} onClose={onClose} title={t('settings.title')} size="full" className="settings-modal">
      <Tabs
        label={t('settings.title')}
        orientation="vertical"
        value={tab}
        onChange={(id) => setTab(id as SettingsTab)}
        items={tabs.map((id) => ({
          id,
          label: t(`settings.tabs.${id}`),
          content: tab === id ? <Suspense fallback={<Spinner />}>{tabContent(id)}</Suspense> : null,
        }))}
      />
    </Dialog>
  );
}
