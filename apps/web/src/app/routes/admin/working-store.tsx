import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Select } from '@/components/ui/select';
import { useSession, type Store } from '@/lib/session';

const KEY = 'pos-admin-store';

/**
 * The store the catalogue and purchasing pages work in: the one chosen on them (kept for the tab's
 * session), else the till's store, else the user's first. The back office chooses no till.
 */
export function useBackOfficeStore(): { store: Store | null; stores: Store[]; choose: (id: number) => void } {
  const { user, store: till } = useSession();
  const stores = user?.stores ?? [];
  const [id, setId] = useState<number | null>(() => Number(sessionStorage.getItem(KEY)) || till?.id || null);
  const store = stores.find((s) => s.id === id) ?? stores[0] ?? null;
  const choose = (next: number) => {
    sessionStorage.setItem(KEY, String(next));
    setId(next);
  };
  return { store, stores, choose };
}

/** The page's store select, beside its heading (only with more than one store). */
export function StoreChoice({ store, stores, choose }: ReturnType<typeof useBackOfficeStore>) {
  const { t } = useTranslation('admin');
  if (stores.length < 2) return null;
  return (
    <Select
      label={t('workingStore')}
      containerClassName="admin-store-choice"
      value={String(store?.id ?? '')}
      options={stores.map((s) => ({ value: String(s.id), label: s.name }))}
      onChange={(e) => choose(Number(e.target.value))}
    />
  );
}
