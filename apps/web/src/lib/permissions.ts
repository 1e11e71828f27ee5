import { BUILTIN_PERMISSIONS, type Permission } from '@pos/domain/permissions';
import { useSession, type User } from './session';

/**
 * What the signed-in user may do (issue 21.1): the permissions the session carries. The server
 * decides; the app only hides what would be refused. A server that sends no permissions (older
 * release): ROLE_ADMIN may do everything, anyone else what a Cashier may.
 */
export function permissionsOf(user: User | null | undefined): readonly string[] {
  if (!user) return [];
  if (user.permissions) return user.permissions;
  return user.roles.includes('ROLE_ADMIN') ? BUILTIN_PERMISSIONS.owner : BUILTIN_PERMISSIONS.cashier;
}

export const can = (user: User | null | undefined, permission: Permission): boolean => permissionsOf(user).includes(permission);

/** The current user's permission, for hiding buttons and menu entries. */
export function useCan(permission: Permission): boolean {
  return can(useSession().user, permission);
}
