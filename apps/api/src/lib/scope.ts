import { validationError } from '@pos/domain/errors';
import type { AuthInfo } from '../plugins/auth.ts';

/** A caller may only link records to stores they belong to. */
export function assertCallerStores(auth: AuthInfo, storeIds: number[], propertyPath: string) {
  const i = storeIds.findIndex((id) => !auth.storeIds.includes(id));
  if (i >= 0) throw validationError([{ propertyPath: `${propertyPath}[${i}]`, message: `'Store' with ID '${storeIds[i]}' not found` }]);
}

/** The store a request acts on: must be one of the caller's. */
export function assertCallerStore(auth: AuthInfo, storeId: number, propertyPath = 'store') {
  if (!auth.storeIds.includes(storeId)) throw validationError([{ propertyPath, message: `'Store' with ID '${storeId}' not found` }]);
}
