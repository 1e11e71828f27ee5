import { Navigate } from 'react-router';
import { AuditPage } from '@/features/audit/components/audit-page';
import { useCan } from '@/lib/permissions';

/** /admin/audit: the audit log, for 'audit.view' (issue 21.4). */
export function AdminAuditRoute() {
  const allowed = useCan('audit.view');
  if (!allowed) return <Navigate to="/admin/dashboard" replace />;
  return <AuditPage />;
}
