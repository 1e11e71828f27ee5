import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import { UserMenu } from '@/components/layout/user-menu';
import type { User } from '@/lib/session';
import { can } from '@/lib/permissions';
import '../admin.css';

export interface AdminShellProps {
  user: User;
  /** The Sign Out button (features/auth), passed in by the route. */
  signOut: ReactNode;
  children: ReactNode;
}

/**
 * The back office's chrome (spec 2.1 admin variant, issue 23): a header with the way to the till,
 * the profile link, the user menu (language) and Sign Out; a sidebar with the pages the user's
 * permissions open, in the order Dashboard, Catalogue, Stock, Purchasing, Customers, Staff,
 * Reports, Settings; the page in the main area. Below the 1224px breakpoint the sidebar becomes a
 * bar under the header.
 */
export function AdminShell({ user, signOut, children }: AdminShellProps) {
  const { t } = useTranslation(['admin', 'backup', 'common']);
  const name = user.displayName || user.username;
  return (
    <div className="admin-shell">
      <header className="admin-header">
        <Link to="/admin/dashboard" className="admin-brand">{t('brand')}</Link>
        <span className="grow" />
        <Link to="/pos" className="btn btn-ghost btn-sm">{t('common:places.till')}</Link>
        <NavLink to="/admin/profile" className="btn btn-ghost btn-sm admin-profile-link">
          <span className="visually-hidden">{t('header.profile')}: </span>
          <span aria-hidden="true" className="admin-avatar">{(user.displayName || user.username).slice(0, 1).toLocaleUpperCase()}</span>
          {name}
        </NavLink>
        <UserMenu name={name} />
        {signOut}
      </header>
      <aside className="admin-sidebar">
        <nav aria-label={t('sidebar.label')}>
          <NavLink to="/admin/dashboard" className="admin-nav-link">{t('sidebar.dashboard')}</NavLink>
          {can(user, 'products.manage') && <NavLink to="/admin/catalogue" className="admin-nav-link">{t('sidebar.catalogue')}</NavLink>}
          <NavLink to="/admin/stock" className="admin-nav-link">{t('sidebar.stock')}</NavLink>
          {can(user, 'purchasing') && <NavLink to="/admin/stock/reorder" className="admin-nav-link">{t('sidebar.reorder')}</NavLink>}
          {can(user, 'purchasing') && <NavLink to="/admin/purchasing" className="admin-nav-link">{t('sidebar.purchasing')}</NavLink>}
          <NavLink to="/admin/customers" className="admin-nav-link">{t('sidebar.customers')}</NavLink>
          {can(user, 'users') && <NavLink to="/admin/staff" className="admin-nav-link">{t('sidebar.staff')}</NavLink>}
          {can(user, 'reports.view') && <NavLink to="/admin/reports" className="admin-nav-link">{t('sidebar.reports')}</NavLink>}
          {(can(user, 'settings') || can(user, 'products.manage')) && <NavLink to="/admin/settings" className="admin-nav-link">{t('sidebar.settings')}</NavLink>}
          {can(user, 'audit.view') && <NavLink to="/admin/audit" className="admin-nav-link">{t('sidebar.audit')}</NavLink>}
          {can(user, 'settings') && <NavLink to="/admin/backups" className="admin-nav-link">{t('backup:nav')}</NavLink>}
        </nav>
      </aside>
      <main className="admin-main">{children}</main>
    </div>
  );
}
