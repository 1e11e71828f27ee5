import { Navigate } from 'react-router';

/* Spec 2.1's /admin/users, /admin/users/create and /admin/users/edit/:id were placeholders; the
   users are managed under Staff (issue 23), so these addresses lead there. */

export function AdminUsersRoute() {
  return <Navigate to="/admin/staff/users" replace />;
}
