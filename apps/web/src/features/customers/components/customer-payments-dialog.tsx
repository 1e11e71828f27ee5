import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/ui/dialog';
import type { Customer } from '@/features/catalogue-cache/types';
import { CustomerLedger } from './customer-ledger';

/** 'Payment history of {customer name}' on the till: the customer's ledger in a dialog. */
export function CustomerPaymentsDialog({ customer, onClose }: { customer: Customer | null; onClose: () => void; locale?: string }) {
  const { t } = useTranslation('sale');
  if (!customer) return null;
  return (
    <Dialog open onClose={onClose} title={t('customers.paymentHistory', { name: customer.name })} size="xl">
      <CustomerLedger customer={customer} />
    </Dialog>
  );
}
