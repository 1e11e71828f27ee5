import { Navigate } from 'react-router';
import { ReorderPage } from '@/features/reorder/components/reorder-page';
import { useCan } from '@/lib/permissions';

/** /admin/stock/reorder: the "to order" list and its draft purchase orders, for 'purchasing' (issue 25.4). */
export function AdminReorderRoute() {
  const allowed = useCan('purchasing');
  if (!allowed) return <Navigate to="/admin/dashboard" replace />;
  return <ReorderPage />;
}
