import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { isValidMoneyInput } from '@pos/domain/money';
import { messages } from '@pos/domain/validation';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { MoneyInput } from '@/components/ui/money-input';
import { normaliseNumberText } from '@/components/ui/number-input';
import { toast } from '@/components/ui/toast';
import { applyServerErrors } from '@/lib/form-errors';
import type { Customer } from '@/features/catalogue-cache/types';
import { useSaveCustomer, type CustomerInput } from '@/features/customers/api/customers';

// The money inputs' text (the store currency's decimals, the locale's separator: issue 19) in the wire's form.
const number = (required: boolean) =>
  z.string().trim().transform((v) => normaliseNumberText(v))
    .refine((v) => (v === '' ? !required : isValidMoneyInput(v, { scale: 3 })), { message: messages.number })
    .refine((v) => !required || v !== '', { message: messages.required });

/** Customer form rules (spec 5): name, phone and a numeric opening balance are required. */
export const customerSchema = z.object({
  name: z.string().trim().min(1, messages.required),
  phone: z.string().trim().min(1, messages.required),
  cnic: z.string(),
  email: z.string().trim().refine((v) => v === '' || z.email().safeParse(v).success, { message: messages.email }),
  openingBalance: z.string().trim().min(1, messages.required).transform((v) => normaliseNumberText(v)).refine((v) => isValidMoneyInput(v, { scale: 3 }), { message: messages.number }),
  allowCredit: z.boolean(),
  creditLimit: number(false),
});

const EMPTY: CustomerInput = { name: '', phone: '', cnic: '', email: '', openingBalance: '0', allowCredit: false, creditLimit: '' };

const toForm = (c: Customer): CustomerInput => ({
  name: c.name ?? '',
  phone: c.phone ?? '',
  cnic: c.cnic ?? '',
  email: c.email ?? '',
  openingBalance: String(c.openingBalance ?? 0),
  allowCredit: !!c.allowCreditSale,
  creditLimit: c.creditLimit === null || c.creditLimit === undefined ? '' : String(c.creditLimit),
});

/** Create or update a customer; a saved customer is handed back (the till attaches it). */
export function CustomerForm({ editing, onSaved, onCancel }: { editing: Customer | null; onSaved: (c: Customer) => void; onCancel: () => void }) {
  const { t } = useTranslation('sale');
  const save = useSaveCustomer();
  const { register, handleSubmit, reset, setError, formState: { errors } } = useForm<CustomerInput>({
    resolver: zodResolver(customerSchema),
    defaultValues: EMPTY,
  });
  useEffect(() => {
    reset(editing ? toForm(editing) : EMPTY);
  }, [editing, reset]);

  const submit = handleSubmit((input) =>
    save.mutate(
      { input, id: editing?.id ?? null },
      {
        onSuccess: (customer) => {
          toast.success(editing ? t('customers.updated') : t('customers.created'));
          reset(EMPTY);
          onSaved(customer);
        },
        onError: (error) => {
          const banner = applyServerErrors(error, setError, ['name', 'phone', 'cnic', 'email', 'openingBalance', 'creditLimit']);
          if (banner) toast.error(banner);
        },
      },
    ),
  );

  return (
    <form className="stack customer-form" onSubmit={(e) => void submit(e)} noValidate aria-label={editing ? t('customers.update') : t('customers.create')}>
      <h3>{editing ? t('customers.update') : t('customers.create')}</h3>
      <Input label={t('customers.name')} required error={errors.name?.message} {...register('name')} />
      <Input label={t('customers.phone')} required error={errors.phone?.message} {...register('phone')} />
      <Input label={t('customers.cnic')} error={errors.cnic?.message} {...register('cnic')} />
      <Input label={t('customers.email')} type="email" error={errors.email?.message} {...register('email')} />
      <MoneyInput label={t('customers.openingBalance')} required allowNegative error={errors.openingBalance?.message} {...register('openingBalance')} />
      <Checkbox label={t('customers.allowCredit')} {...register('allowCredit')} />
      <MoneyInput label={t('customers.creditLimit')} hint={t('customers.creditLimitHint')} error={errors.creditLimit?.message} {...register('creditLimit')} />
      <div className="row">
        <Button type="submit" loading={save.isPending}>{editing ? t('customers.update') : t('customers.create')}</Button>
        {editing && <Button variant="ghost" onClick={() => { reset(EMPTY); onCancel(); }}>{t('cancel', { ns: 'common' })}</Button>}
      </div>
    </form>
  );
}
