import { useTranslation } from 'react-i18next';
import { Navigate, Route, Routes, useNavigate, useParams } from 'react-router';
import { ItemFormDialog } from '@/features/items/components/item-form-dialog';
import { ItemsList } from '@/features/items/components/items-list';
import type { Product } from '@/features/items/lib/types';
import { RecordPage } from '@/features/list-table/components/record-page';
import { useCan } from '@/lib/permissions';
import { WorkingStoreProvider } from '@/lib/working-store';
import { StoreChoice, useBackOfficeStore } from './working-store.tsx';

const LIST = '/admin/catalogue';

/** The products list (search, filters, pages, import/export, labels); Add and Edit open the form's own URL. */
function CatalogueList({ choice }: { choice: ReturnType<typeof useBackOfficeStore> }) {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  return (
    <>
      <div className="admin-page-head">
        <h1>{t('catalogue.title')}</h1>
        <StoreChoice {...choice} />
      </div>
      <div className="admin-list">
        <ItemsList onOpen={(id) => navigate(`${LIST}/${id}`)} />
      </div>
    </>
  );
}

function ProductRoute() {
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const close = () => navigate(LIST);
  return (
    <RecordPage<Product> key={id} collection="/products" id={id} back={LIST}>
      {(product) => <ItemFormDialog open asPage product={product} onClose={close} />}
    </RecordPage>
  );
}

function NewProductRoute() {
  const navigate = useNavigate();
  return <ItemFormDialog open asPage product={null} onClose={() => navigate(LIST)} />;
}

/**
 * /admin/catalogue/*: the products of the till's Settings > Items, as pages with their own URLs
 * (issue 23.1): the list, /new, /:id. The same components as the till's dialogs; 'products.manage' only.
 */
export function AdminCatalogueRoutes() {
  const allowed = useCan('products.manage');
  const choice = useBackOfficeStore();
  if (!allowed) return <Navigate to="/admin/dashboard" replace />;
  return (
    <WorkingStoreProvider store={choice.store}>
      <Routes>
        <Route index element={<CatalogueList choice={choice} />} />
        <Route path="new" element={<NewProductRoute />} />
        <Route path=":id" element={<ProductRoute />} />
      </Routes>
    </WorkingStoreProvider>
  );
}

export default AdminCatalogueRoutes;
