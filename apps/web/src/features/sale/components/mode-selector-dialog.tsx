import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import type { PosMode } from '@/features/sale/preferences-store';

/** 'Select a mode': Pos, Order only, Payment only. Choosing one empties the cart (the caller does). */
export function ModeSelectorDialog({ open, onClose, mode, onSelect }: { open: boolean; onClose: () => void; mode: PosMode; onSelect: (m: PosMode) => void }) {
  const { t } = useTranslation('sale');
  const modes: Array<[PosMode, string]> = [['pos', t('mode.pos')], ['order', t('mode.order')], ['payment', t('mode.payment')]];
  return (
    <Dialog open={open} onClose={onClose} title={t('mode.title')} size="sm">
      <div className="choice-grid">
        {modes.map(([m, label]) => (
          <Button key={m} size="lg" variant={m === mode ? 'primary' : 'secondary'} aria-pressed={m === mode} onClick={() => { onSelect(m); onClose(); }}>
            {label}
          </Button>
        ))}
      </div>
    </Dialog>
  );
}
