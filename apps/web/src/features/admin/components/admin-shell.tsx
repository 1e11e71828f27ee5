import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import { LanguageSwitch } from '@/components/layout/language-switch';
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
 * The admin shell's chrome (spec 2.1, admin variant): a header with the language switch, a link to
 * the profile and Sign Out; a sidebar (Dashboard, Backups); the page in the main area. Below the
 * 1224px breakpoint the sidebar becomes a bar under the header.
 */
export function AdminShell({ user, signOut, children }: AdminShellProps) {
  const { t } = useTranslation(['admin', 'backup']);
  return (
    <div className="admin-shell">
      <header className="admin-header">
        <Link to="/admin/dashboard" className="admin-brand">{t('brand')}</Link>
        <span className="grow" />
        <LanguageSwitch />
        <NavLink to="/admin/profile" className="btn btn-ghost btn-sm admin-profile-link">
          <span className="visually-hidden">{t('header.profile')}: </span>
          <span aria-hidden="true" className="admin-avatar">{(user.displayName || user.username).slice(0, 1).toLocaleUpperCase()}</span>
          {user.displayName || user.username}
        </NavLink>
        {signOut}
      </header>
      <aside className="admin-sidebar">
        <nav aria-label={t('sidebar.label')}>
          <NavLink to="/admin/dashboard" className="admin-nav-link">{t('sidebar.dashboard')}</NavLink>
          <NavLink to="/admin/stock" className="admin-nav-link">{t('sidebar.stock')}</NavLink>
          {can(user, 'purchasing') && <NavLink to="/admin/stock/reorder" className="admin-nav-link">{t('sidebar.reorder')}</NavLink>}
          {can(user, 'reports.view') && <NavLink to="/admin/reports" className="admin-nav-link">{t('sidebar.reports')}</NavLink>}
          {can(user, 'audit.view') && <NavLink to="/admin/audit" className="admin-nav-link">{t('sidebar.audit')}</NavLink>}
          {can(user, 'settings') && <NavLink to="/admin/backups" className="admin-nav-link">{t('backup:nav')}</NavLink>}
        </nav>
      </aside>
      <main className="admin-main">{children}</main>
    </div>
  );
}
