import { Navigate, Route, Routes, useParams } from 'react-router';
import { ItemPicker } from '@/features/inventory/components/item-picker';
import { printReceipt } from '@/features/receipt/print-receipt';
import { usePreferences } from '@/features/sale/preferences-store';
import type { PickerSlot } from '@/features/stock/components/stock-common';
import { AdjustmentDetailPage } from '@/features/stock/components/adjustment-detail';
import { AdjustmentNewPage } from '@/features/stock/components/adjustment-form';
import { CountDetailPage } from '@/features/stock/components/count-detail';
import { CountNewPage } from '@/features/stock/components/count-form';
import { AdjustmentsList, CountsList, TransfersList } from '@/features/stock/components/stock-lists';
import { MovementsPage } from '@/features/stock/components/movements-page';
import { TransferDetailPage } from '@/features/stock/components/transfer-detail';
import { TransferNewPage } from '@/features/stock/components/transfer-form';
import { ValuationPage } from '@/features/stock/components/valuation-page';
import { useCan } from '@/lib/permissions';

/** The product picker of purchasing (features/inventory) offered on the stock pages' lines. */
const picker: PickerSlot = (onPick) => (
  <ItemPicker onPick={(p) => onPick({ product: { id: p.id, name: p.name, barcode: p.barcode ?? null }, variant: null, variants: p.variants ?? [] })} />
);

function useId() {
  return Number(useParams().id);
}

function TransferRoute() {
  const id = useId();
  const printer = usePreferences((p) => p.receiptPrinter);
  return <TransferDetailPage key={id} id={id} printer={printer} browserPrint={printReceipt} />;
}
function CountRoute() {
  const id = useId();
  return <CountDetailPage key={id} id={id} picker={picker} />;
}
function AdjustmentRoute() {
  const id = useId();
  return <AdjustmentDetailPage key={id} id={id} />;
}

/**
 * /admin/stock/*: transfers, counts and adjustments (issue 25), one lazy chunk of the admin shell.
 * Reading needs a store (any user); the pages hide what 'purchasing' (transfers, counts) and 'stock.adjust' (adjustments, approving a count) allow; the server decides.
 * The valuation shows cost: 'cost.view' only (its tab is hidden without it).
 */
export function AdminStockRoutes() {
  const canWrite = useCan('purchasing');
  const canAdjust = useCan('stock.adjust');
  const canValue = useCan('cost.view');
  const write = (el: React.ReactElement, back: string, may = canWrite) => (may ? el : <Navigate to={back} replace />);
  return (
    <Routes>
      <Route index element={<Navigate to="transfers" replace />} />
      <Route path="transfers" element={<TransfersList />} />
      <Route path="transfers/new" element={write(<TransferNewPage picker={picker} />, '/admin/stock/transfers')} />
      <Route path="transfers/:id" element={<TransferRoute />} />
      <Route path="counts" element={<CountsList />} />
      <Route path="counts/new" element={write(<CountNewPage />, '/admin/stock/counts')} />
      <Route path="counts/:id" element={<CountRoute />} />
      <Route path="adjustments" element={<AdjustmentsList />} />
      <Route path="adjustments/new" element={write(<AdjustmentNewPage picker={picker} />, '/admin/stock/adjustments', canAdjust)} />
      <Route path="adjustments/:id" element={<AdjustmentRoute />} />
      <Route path="movements" element={<MovementsPage picker={picker} />} />
      <Route path="valuation" element={canValue ? <ValuationPage /> : <Navigate to="/admin/stock" replace />} />
    </Routes>
  );
}

export default AdminStockRoutes;
