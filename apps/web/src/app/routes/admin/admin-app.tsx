import { Suspense, lazy, useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Route, Routes } from 'react-router';
import { Button } from '@/components/ui/button';
import { FullScreenSpinner } from '@/components/ui/spinner';
import { bootAdminSession } from '@/features/admin/admin-session';
import { usePreferences } from '@/features/sale/preferences-store';
import { TouchKeyboard } from '@/features/touch/components/touch-keyboard';
import { resetSession, useSession } from '@/lib/session';
import { NotFoundRoute } from '../not-found';
import { AdminLayoutRoute } from './admin-layout';
import { AdminBackupsRoute } from './admin-backups';
import { AdminDashboardRoute } from './admin-dashboard';
import { AdminLoginRoute } from './admin-login';
import { AdminForgotPasswordRoute, AdminResetPasswordRoute } from './admin-password';
import { AdminProfileRoute } from './admin-profile';
import { AdminAuditRoute } from './admin-audit';
import { AdminReorderRoute } from './admin-reorder';
import { AdminReportsRoute } from './admin-reports';
import { AdminUsersRoute } from './admin-users';

// Stock pages (issue 25): a chunk of their own, loaded when one is opened.
const AdminStockRoutes = lazy(() => import('./admin-stock'));
// Catalogue and purchasing (issue 23.1): the till's forms as pages, each a chunk of its own.
const AdminCatalogueRoutes = lazy(() => import('./admin-catalogue'));
const AdminPurchasingRoutes = lazy(() => import('./admin-purchasing'));
// Customers, Staff and Settings (issue 23): chunks of their own too.
const AdminCustomers = lazy(() => import('./admin-customers').then((m) => ({ default: m.AdminCustomersRoute })));
const AdminCustomer = lazy(() => import('./admin-customers').then((m) => ({ default: m.AdminCustomerRoute })));
const AdminSettings = lazy(() => import('./admin-settings').then((m) => ({ default: m.AdminSettingsRoute })));
const AdminStaff = lazy(() => import('./admin-settings').then((m) => ({ default: m.AdminStaffRoute })));
const page = (element: ReactNode) => <Suspense fallback={<FullScreenSpinner />}>{element}</Suspense>;

/**
 * /admin/*: the admin shell (spec 1 and 2.1, admin variant), one lazy chunk served by the same
 * process and built from the same components as the till. It sits beside the till's RootLayout,
 * not under it: it starts the session with ?role=ROLE_ADMIN and never opens the store chooser.
 */
export function AdminApp() {
  const session = useSession();
  const enableTouch = usePreferences((p) => p.enableTouch);

  useEffect(() => {
    if (session.status === 'booting') void bootAdminSession();
  }, [session.status]);

  if (session.status === 'booting') return <FullScreenSpinner />;
  if (session.status === 'failed') return <AdminInitError />;
  return (
    <>
      <Routes>
        <Route index element={<AdminLoginRoute />} />
        <Route path="forgot-password" element={<AdminForgotPasswordRoute />} />
        <Route path="reset-password/*" element={<AdminResetPasswordRoute />} />
        <Route element={<AdminLayoutRoute />}>
          <Route path="dashboard" element={<AdminDashboardRoute />} />
          <Route path="profile" element={<AdminProfileRoute />} />
          <Route path="audit" element={<AdminAuditRoute />} />
          <Route path="stock/reorder" element={<AdminReorderRoute />} />
          <Route path="reports" element={<AdminReportsRoute />} />
          <Route path="backups" element={<AdminBackupsRoute />} />
          <Route path="catalogue/*" element={<Suspense fallback={<FullScreenSpinner />}><AdminCatalogueRoutes /></Suspense>} />
          <Route path="purchasing/*" element={<Suspense fallback={<FullScreenSpinner />}><AdminPurchasingRoutes /></Suspense>} />
          <Route path="stock/*" element={<Suspense fallback={<FullScreenSpinner />}><AdminStockRoutes /></Suspense>} />
          <Route path="customers" element={page(<AdminCustomers />)} />
          <Route path="customers/:id" element={page(<AdminCustomer />)} />
          <Route path="staff/:tab?" element={page(<AdminStaff />)} />
          <Route path="settings/:tab?" element={page(<AdminSettings />)} />
          <Route path="users/*" element={<AdminUsersRoute />} />
        </Route>
        <Route path="*" element={<NotFoundRoute />} />
      </Routes>
      <TouchKeyboard enabled={enableTouch} />
    </>
  );
}

function AdminInitError() {
  const { t } = useTranslation('common');
  return (
    <main className="fullscreen-center" role="alert">
      <h1>{t('initError')}</h1>
      <Button onClick={resetSession}>{t('retry')}</Button>
    </main>
  );
}

export default AdminApp;
