import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import type { Tax } from '@/features/catalogue-cache/types';
import { setTax } from '@/features/cart/cart-logic';
import { updateCart, useCart } from '@/features/cart/cart-store';

/** Taxes (ctrl+shift+q): a clear button and one button per tax, "name rate%". */
export function TaxesDialog({ open, onClose, taxes }: { open: boolean; onClose: () => void; taxes: Tax[] }) {
  const { t } = useTranslation('sale');
  const current = useCart((s) => s.tax);
  const pick = (tax: Tax | null) => {
    updateCart((s) => setTax(s, tax));
    onClose();
  };
  return (
    <Dialog open={open} onClose={onClose} title={t('taxes.title')} size="md">
      <div className="choice-grid">
        <Button variant="danger" onClick={() => pick(null)}>{t('taxes.clear')}</Button>
        {taxes.map((tax) => (
          <Button key={tax.id} variant={current?.id === tax.id ? 'primary' : 'secondary'} aria-pressed={current?.id === tax.id} onClick={() => pick(tax)}>
            {tax.name} {tax.rate}%
          </Button>
        ))}
      </div>
    </Dialog>
  );
}
