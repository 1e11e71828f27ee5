import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/toast';
import { applyServerErrors } from '@/lib/form-errors';
import type { Customer } from '@/features/catalogue-cache/types';
import { useSaveCustomer } from '@/features/customers/api/customers';
import { customerSchema } from './customer-form';

const quickSchema = customerSchema.pick({ name: true, phone: true });
type QuickInput = { name: string; phone: string };

/**
 * A new customer from the sale's customer box (issue 23.2): name and phone only (the rest as the
 * full form's defaults: no opening balance, no credit), created on the server and handed back to
 * be attached to the sale.
 */
export function QuickCustomerDialog({ open, initial, onClose, onCreated }: { open: boolean; initial: QuickInput; onClose: () => void; onCreated: (c: Customer) => void }) {
  const { t } = useTranslation('sale');
  const save = useSaveCustomer();
  const { register, handleSubmit, reset, setError, formState: { errors } } = useForm<QuickInput>({ resolver: zodResolver(quickSchema), defaultValues: initial });
  useEffect(() => {
    if (open) reset(initial);
    // Filled again each time it opens, from the text typed.
  }, [open]);

  const submit = handleSubmit((input) =>
    save.mutate(
      { input: { ...input, cnic: '', email: '', openingBalance: '0', allowCredit: false, creditLimit: '' }, id: null },
      {
        onSuccess: (customer) => {
          toast.success(t('customers.created'));
          onCreated(customer);
        },
        onError: (error) => {
          const banner = applyServerErrors(error, setError, ['name', 'phone']);
          if (banner) toast.error(banner);
        },
      },
    ),
  );

  return (
    <Dialog open={open} onClose={onClose} title={t('customerLookup.createTitle')} size="sm">
      <form className="stack" onSubmit={(e) => void submit(e)} noValidate aria-label={t('customerLookup.createTitle')}>
        <Input label={t('customers.name')} required error={errors.name?.message} data-autofocus {...register('name')} />
        <Input label={t('customers.phone')} required inputMode="tel" error={errors.phone?.message} {...register('phone')} />
        <div className="row">
          <Button type="submit" loading={save.isPending}>{t('customerLookup.createAndAttach')}</Button>
          <Button variant="ghost" onClick={onClose}>{t('cancel', { ns: 'common' })}</Button>
        </div>
      </form>
    </Dialog>
  );
}
