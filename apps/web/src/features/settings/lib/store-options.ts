import { useOptionList, toOptions } from '@/features/list-table/hooks/use-options';
import { iri } from '@/features/list-table/lib/refs';
import type { StoreRef } from './types.ts';

/** The stores the user can pick in forms. */
export function useStoreOptions() {
  const q = useOptionList<StoreRef & { isActive?: boolean }>('/stores', {});
  return toOptions(q.data, (s) => s.name);
}

export const storeIri = (id: string) => iri('stores', id);

export const storeIds = (stores: readonly StoreRef[] | null | undefined) => (stores ?? []).map((s) => String(s.id));

export const storeNames = (stores: readonly StoreRef[] | null | undefined) => (stores ?? []).map((s) => s.name).join(', ');
