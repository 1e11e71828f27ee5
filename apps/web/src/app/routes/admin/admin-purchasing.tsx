import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, NavLink, Route, Routes, useNavigate, useParams } from 'react-router';
import { PurchaseFormDialog } from '@/features/inventory/components/purchase-form-dialog';
import { PurchaseOrderDialog } from '@/features/inventory/components/purchase-order-dialog';
import { PurchaseOrdersTab } from '@/features/inventory/components/purchase-orders-tab';
import { PurchasesTab } from '@/features/inventory/components/purchases-tab';
import { SupplierFormDialog } from '@/features/inventory/components/supplier-form-dialog';
import { SuppliersTab } from '@/features/inventory/components/suppliers-tab';
import type { Purchase, PurchaseOrder, Supplier } from '@/features/inventory/lib/types';
import { RecordPage } from '@/features/list-table/components/record-page';
import { useCan } from '@/lib/permissions';
import { WorkingStoreProvider } from '@/lib/working-store';
import { StoreChoice, useBackOfficeStore } from './working-store.tsx';

const BASE = '/admin/purchasing';
type Section = 'suppliers' | 'orders' | 'receipts';

/** Suppliers, Orders, Receipts: the purchasing pages' own tabs. */
function PurchasingTabs() {
  const { t } = useTranslation('admin');
  return (
    <nav className="admin-tabs" aria-label={t('purchasing.nav')}>
      {(['suppliers', 'orders', 'receipts'] as const).map((s) => (
        <NavLink key={s} to={`${BASE}/${s}`} className="admin-tab">{t(`purchasing.tabs.${s}`)}</NavLink>
      ))}
    </nav>
  );
}

/** A list page: the heading, the tabs, the till's list with Add/Edit leading to the record's URL. */
function ListPage({ section, choice }: { section: Section; choice: ReturnType<typeof useBackOfficeStore> }) {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const onOpen = (id: number | 'new') => navigate(`${BASE}/${section}/${id}`);
  return (
    <>
      <div className="admin-page-head">
        <h1>{t('purchasing.title')}</h1>
        <StoreChoice {...choice} />
      </div>
      <PurchasingTabs />
      <div className="admin-list">
        {section === 'suppliers' ? <SuppliersTab onOpen={onOpen} /> : section === 'orders' ? <PurchaseOrdersTab onOpen={onOpen} /> : <PurchasesTab onOpen={onOpen} />}
      </div>
    </>
  );
}

const COLLECTION: Record<Section, string> = { suppliers: '/suppliers', orders: '/purchase_orders', receipts: '/purchases' };

/** A form page: /new, or /:id with the record as the server has it now. */
function FormRoute({ section, isNew = false }: { section: Section; isNew?: boolean }) {
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const back = `${BASE}/${section}`;
  const close = () => navigate(back);
  const form = (record: unknown): ReactElement =>
    section === 'suppliers' ? <SupplierFormDialog open asPage supplier={record as Supplier | null} onClose={close} />
      : section === 'orders' ? <PurchaseOrderDialog open asPage order={record as PurchaseOrder | null} onClose={close} />
        : <PurchaseFormDialog open asPage purchase={record as Purchase | null} onClose={close} />;
  if (isNew) return form(null);
  return <RecordPage key={id} collection={COLLECTION[section]} id={id} back={back}>{form}</RecordPage>;
}

/**
 * /admin/purchasing/*: suppliers, purchase orders and receipts (purchases) of the till's Inventory
 * dialog as pages with their own URLs (issue 23.1): each list, its /new and /:id. 'purchasing' only.
 */
export function AdminPurchasingRoutes() {
  const allowed = useCan('purchasing');
  const choice = useBackOfficeStore();
  if (!allowed) return <Navigate to="/admin/dashboard" replace />;
  return (
    <WorkingStoreProvider store={choice.store}>
      <Routes>
        <Route index element={<Navigate to="orders" replace />} />
        {(['suppliers', 'orders', 'receipts'] as const).map((s) => [
          <Route key={s} path={s} element={<ListPage section={s} choice={choice} />} />,
          <Route key={`${s}-new`} path={`${s}/new`} element={<FormRoute section={s} isNew />} />,
          <Route key={`${s}-id`} path={`${s}/:id`} element={<FormRoute section={s} />} />,
        ])}
      </Routes>
    </WorkingStoreProvider>
  );
}

export default AdminPurchasingRoutes;
