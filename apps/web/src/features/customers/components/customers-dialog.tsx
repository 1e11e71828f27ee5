import { Dialog } from '@/components/ui/dialog';
import { useTranslation } from 'react-i18next';
import type { Customer } from '@/features/catalogue-cache/types';
import { CustomersPanel } from './customers-panel';

export { balanceOf } from './customers-panel';

export interface CustomersDialogProps {
  open: boolean;
  onClose: () => void;
  selectedId: number | null;
  onSelect: (customer: Customer) => void;
  onHistory: (customer: Customer) => void;
  locale?: string;
}

/** Customers on the till (ctrl+shift+c): the customers panel with Select; a pick or a saved customer goes on the sale. */
export function CustomersDialog({ open, onClose, selectedId, onSelect, onHistory }: CustomersDialogProps) {
  const { t } = useTranslation('sale');
  const pick = (c: Customer) => {
    onSelect(c);
    onClose();
  };
  return (
    <Dialog open={open} onClose={onClose} title={t('customers.title')} size="xl">
      <CustomersPanel enabled={open} selectedId={selectedId} onSelect={pick} onSaved={pick} onHistory={onHistory} />
    </Dialog>
  );
}
