import { lazy } from 'react';
import type { Permission } from '@pos/domain/permissions';
import { can } from '@/lib/permissions';
import type { User } from '@/lib/session';
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
import { ScaleBarcodesTab } from './scale-barcodes-tab.tsx';

// The General tab belongs to the till (features/sale): its own chunk, like every tab body below.
const GeneralSettings = lazy(() => import('@/features/sale/components/general-settings').then((m) => ({ default: m.GeneralSettings })));

// The products list and item form are the heaviest tab: their own chunk.
const ItemsList = lazy(() => import('@/features/items/components/items-list').then((m) => ({ default: m.ItemsList })));

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
  'scaleBarcodes',
] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

/** The permission a back-office tab needs (issue 21.1): the tab is hidden without it; the server refuses anyway. */
export const TAB_PERMISSION: Partial<Record<SettingsTab, Permission>> = {
  stores: 'settings', paymentTypes: 'settings', terminals: 'settings', printers: 'settings', scaleBarcodes: 'settings', users: 'users', roles: 'users',
  brands: 'products.manage', categories: 'products.manage', discounts: 'products.manage', taxes: 'products.manage',
  departments: 'products.manage', items: 'products.manage', barcodes: 'products.manage',
};

export function tabContent(tab: SettingsTab) {
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
    case 'scaleBarcodes': return <ScaleBarcodesTab />;
  }
}

/** The tabs this user may open, in their order. */
export const tabsFor = (user: User | null | undefined, tabs: readonly SettingsTab[] = SETTINGS_TABS): SettingsTab[] =>
  tabs.filter((id) => !TAB_PERMISSION[id] || can(user, TAB_PERMISSION[id]));

/** The back office's Settings pages (issue 23), in their order: users and roles are under Staff, the products under Catalogue, Profile in the header, General is the till's own. */
export const BACK_OFFICE_SETTINGS: readonly SettingsTab[] = ['stores', 'terminals', 'printers', 'scaleBarcodes', 'paymentTypes', 'taxes', 'discounts', 'departments', 'brands', 'categories', 'barcodes'];

/** A tab's address: /admin/settings/payment-types for paymentTypes. */
export const tabSlug = (tab: SettingsTab): string => tab.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
export const tabOfSlug = (slug: string | undefined): SettingsTab | null =>
  SETTINGS_TABS.find((tab) => tabSlug(tab) === slug) ?? null;
