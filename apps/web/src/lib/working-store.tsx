import { createContext, useContext, type ReactNode } from 'react';
import { useSession, type Store } from './session';

const WorkingStore = createContext<Store | null | undefined>(undefined);

/**
 * The store the catalogue and purchasing forms work in. At the till it is the till's store; the
 * back office (which chooses no till) names one for its pages with this provider.
 */
export function WorkingStoreProvider({ store, children }: { store: Store | null; children: ReactNode }) {
  return <WorkingStore.Provider value={store}>{children}</WorkingStore.Provider>;
}

/** The provider's store, else the session's (the till's). */
export function useWorkingStore(): Store | null {
  const chosen = useContext(WorkingStore);
  const { store } = useSession();
  return chosen === undefined ? store : chosen;
}
