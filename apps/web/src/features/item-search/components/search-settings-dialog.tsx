import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/ui/dialog';
import { Switch } from '@/components/ui/switch';
import { searchSettingsStore, useSearchSettings } from '@/features/item-search/search-client';

/** The item search's settings: close after adding, case-sensitive, threshold 0 to 1 in steps of 0.1. */
export function SearchSettingsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('sale');
  const closeAfterAdd = useSearchSettings((s) => s.closeAfterAdd);
  const isCaseSensitive = useSearchSettings((s) => s.isCaseSensitive);
  const threshold = useSearchSettings((s) => s.threshold);
  const set = (patch: Partial<ReturnType<typeof searchSettingsStore.get>>) => searchSettingsStore.set((s) => ({ ...s, ...patch }));
  return (
    <Dialog open={open} onClose={onClose} title={t('itemSearch.settingsTitle')} size="sm">
      <div className="stack">
        <Switch checked={closeAfterAdd} onChange={(v) => set({ closeAfterAdd: v })} label={t('itemSearch.closeAfterAdd')} />
        <Switch checked={isCaseSensitive} onChange={(v) => set({ isCaseSensitive: v })} label={t('itemSearch.caseSensitive')} />
        <label className="field">
          <span className="field-label">{t('itemSearch.threshold')}: {threshold.toFixed(1)}</span>
          <input
            type="range"
            min={0}
            max={1}
            step={0.1}
            value={threshold}
            aria-valuetext={threshold.toFixed(1)}
            onChange={(e) => set({ threshold: Math.round(Number(e.target.value) * 10) / 10 })}
          />
        </label>
      </div>
    </Dialog>
  );
}
