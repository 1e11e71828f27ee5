import { useEffect } from 'react';
import { cacheDb, clearCatalogueCache } from '@/features/catalogue-cache/cache-db';
import { catalogueStore, setCatalogue } from '@/features/catalogue-cache/catalogue-store';
import { getJson } from '@/features/catalogue-cache/api/get-json';
import { loadCatalogue } from '@/features/catalogue-cache/load-catalogue';

let running: Promise<void> | null = null;
let doneTimer: ReturnType<typeof setTimeout> | null = null;

/** Runs the start-up loading sequence once per page (every screen that mounts the hook shares it). */
export function startCatalogueLoad(): Promise<void> {
  if (running) return running;
  if (catalogueStore.get().status === 'ready') return Promise.resolve();
  catalogueStore.set((s) => ({ ...s, status: 'loading', step: 'Products', progress: null, error: null }));
  running = loadCatalogue({
    db: cacheDb(),
    get: getJson,
    onProgress: (step, detail) => catalogueStore.set((s) => ({ ...s, step, progress: detail ?? (step === s.step ? s.progress : null) })),
  })
    .then((catalogue) => {
      setCatalogue(catalogue);
      // 'Done' disappears after 1 second (spec 4).
      if (doneTimer) clearTimeout(doneTimer);
      doneTimer = setTimeout(() => catalogueStore.set((s) => ({ ...s, step: null, progress: null })), 1000);
    })
    .catch((error: unknown) => {
      catalogueStore.set((s) => ({ ...s, status: 'error', error }));
    })
    .finally(() => {
      running = null;
    });
  return running;
}

export function useCatalogueLoader(): void {
  useEffect(() => {
    void startCatalogueLoad();
  }, []);
}

/** "Refresh Browser Cache": forget the cached lists and reload the page, which fetches them again. */
export async function refreshBrowserCache(reload: () => void = () => window.location.reload()): Promise<void> {
  await clearCatalogueCache();
  reload();
}
