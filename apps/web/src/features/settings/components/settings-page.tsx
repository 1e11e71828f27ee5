import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '@/components/ui/spinner';
import { Tabs } from '@/components/ui/tabs';
import { useSession } from '@/lib/session';
import { BACK_OFFICE_SETTINGS, tabContent, tabsFor, type SettingsTab } from './settings-tabs-registry.tsx';
import '@/features/list-table/backoffice.css';

export interface SettingsPageProps {
  /** The open tab (from the address), or null for the first the user may open. */
  tab: SettingsTab | null;
  /** Another tab chosen: the route changes the address. */
  onTab: (tab: SettingsTab) => void;
  /** The tabs shown (default: the back office's settings). */
  tabs?: readonly SettingsTab[];
  /** The page's heading (default: Settings). */
  title?: string;
}

/**
 * Settings as a back-office page (issue 23): the same tab bodies as the till's settings dialog, one
 * address per tab. A tab the user may not open is not shown, and its address shows the first one.
 */
export function SettingsPage({ tab, onTab, tabs = BACK_OFFICE_SETTINGS, title }: SettingsPageProps) {
  const { t } = useTranslation('backoffice');
  const { user } = useSession();
  const allowed = tabsFor(user, tabs);
  const current = tab && allowed.includes(tab) ? tab : allowed[0];
  return (
    <section className="stack settings-page" aria-labelledby="settings-page-title">
      <h1 id="settings-page-title">{title ?? t('settings.title')}</h1>
      <Tabs
        label={title ?? t('settings.title')}
        orientation="vertical"
        value={current ?? ''}
        onChange={(id) => onTab(id as SettingsTab)}
        items={allowed.map((id) => ({
          id,
          label: t(`settings.tabs.${id}`),
          content: current === id ? <Suspense fallback={<Spinner />}>{tabContent(id)}</Suspense> : null,
        }))}
      />
    </section>
  );
}
