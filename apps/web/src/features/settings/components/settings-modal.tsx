import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { Tabs } from '@/components/ui/tabs';
import type { Permission } from '@pos/domain/permissions';
import { can } from '@/lib/permissions';
import { useSession } from '@/lib/session';
import { ProfileTab } from './profile-tab.tsx';
import { StoresTab } from './stores-tab.tsx';
import { UsersTab } from './users-tab.tsx';
import { RolesTab } from './roles-tab.tsx';
import { BrandsTab, CategoriesTab } from './named-stores-tab.tsx';
import { PaymentTypesTab } from './payment-types-tab.tsx';
import { DiscountsTab } from './discounts-tab.tsx';
import { TaxesTab } from './taxes-tab.tsx';
import { DepartmentsTab } from './departments-tab.tsx';
import { BarcodesTab } from './barcodes-tab.tsx';
import { TerminalsTab } from './terminals-tab.tsx';
import { PrintersTab } from './printers-tab.tsx';
import '@/features/list-table/backoffice.css';

// The General tab belongs to the till (features/sale): its own chunk, like every tab body below.
const GeneralSettings = lazy(() => import('@/features/sale/components/general-settings').then((m) => ({ default: m.GeneralSettings })));

// The products list and item form are the heaviest tab: their own chunk.
const ItemsList = lazy(() => import('@/features/items/components/items-list').then((m) => ({ default: m.ItemsList })));

export interface SettingsModalProps {
  open: boolean;
  onClose: () => void;
}

export const SETTINGS_TABS = [
  'profile',
  'general',
  'stores',
  'users',
  'roles',
  'brands',
  'categories',
  'paymentTypes',
  'discounts',
  'taxes',
  'departments',
  'items',
  'barcodes',
  'terminals',
  'printers',
] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

/** The permission a back-office tab needs (issue 21.1): the tab is hidden without it; the server refuses anyway. */
const TAB_PERMISSION: Partial<Record<SettingsTab, Permission>> = {
  stores: 'settings', paymentTypes: 'settings', terminals: 'settings', printers: 'settings', users: 'users', roles: 'users',
  brands: 'products.manage', categories: 'products.manage', discounts: 'products.manage', taxes: 'products.manage',
  departments: 'products.manage', items: 'products.manage', barcodes: 'products.manage',
};

function tabContent(tab: SettingsTab) {
  switch (tab) {
    case 'profile': return <ProfileTab />;
    case 'general': return <GeneralSettings />;
    case 'stores': return <StoresTab />;
    case 'users': return <UsersTab />;
    case 'roles': return <RolesTab />;
    case 'brands': return <BrandsTab />;
    case 'categories': return <CategoriesTab />;
    case 'paymentTypes': return <PaymentTypesTab />;
    case 'discounts': return <DiscountsTab />;
    case 'taxes': return <TaxesTab />;
    case 'departments': return <DepartmentsTab />;
    case 'items': return <ItemsList />;
    case 'barcodes': return <BarcodesTab />;
    case 'terminals': return <TerminalsTab />;
    case 'printers': return <PrintersTab />;
  }
}

/** Settings (full size): Profile, General and every back-office list of spec 2.5. */
export function SettingsModal({ open, onClose }: SettingsModalProps) {
  const { t } = useTranslation('backoffice');
  const [tab, setTab] = useState<SettingsTab>('profile');
  const { user } = useSession();
  const tabs = SETTINGS_TABS.filter((id) => !TAB_PERMISSION[id] || can(user, TAB_PERMISSION[id]));
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
