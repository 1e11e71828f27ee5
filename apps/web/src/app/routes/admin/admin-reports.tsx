import { lazy, Suspense } from 'react';
import { Navigate } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import { useCan } from '@/lib/permissions';

// Its own chunk (chart.js comes with it only when a chart is shown).
const ReportsPage = lazy(() => import('@/features/reports/components/reports-page').then((m) => ({ default: m.ReportsPage })));

/** /admin/reports: sales, top sellers, slow movers and balances, for 'reports.view' (issue 25.6). */
export function AdminReportsRoute() {
  const allowed = useCan('reports.view');
  if (!allowed) return <Navigate to="/admin/dashboard" replace />;
  return <Suspense fallback={<Spinner />}><ReportsPage /></Suspense>;
}
