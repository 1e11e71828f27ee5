import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { formatDateTime } from '@pos/domain/format';
import { useMoney } from '@/lib/money';
import { mergeLedger } from '@pos/domain/ledger';
import { isValidMoneyInput, sumCents } from '@pos/domain/money';
import { MoneyInput } from '@/components/ui/money-input';
import { normaliseNumberText } from '@/components/ui/number-input';
import { messages } from '@pos/domain/validation';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { applyServerErrors } from '@/lib/form-errors';
import type { Customer } from '@/features/catalogue-cache/types';
import { useCustomer, useReceivePayment } from '@/features/customers/api/customers';

const paymentSchema = z.object({
  amount: z.string().trim().min(1, messages.required).transform((v) => normaliseNumberText(v))
    .refine((v) => isValidMoneyInput(v, { allowNegative: false, scale: 3 }), { message: messages.number }),
  description: z.string().trim().min(1, messages.required),
});
type PaymentForm = z.infer<typeof paymentSchema>;

interface LedgerRow {
  key: string;
  createdAt: string;
  kind: 'payment' | 'order';
  label: string;
  amountCents: number;
  description: string;
}

/**
 * A customer's account (issue 23: one component for the till's dialog and the back office's
 * /admin/customers/:id): receive a payment, five summary cards and the ledger, newest first.
 */
export function CustomerLedger({ customer }: { customer: Customer }) {
  const currency = useMoney();
  const { t } = useTranslation('sale');
  const { data, isLoading } = useCustomer(customer.id);
  const c = data ?? customer;
  const receive = useReceivePayment(customer.id);
  const { register, handleSubmit, reset, setError, formState: { errors } } = useForm<PaymentForm>({
    resolver: zodResolver(paymentSchema),
    defaultValues: { amount: '', description: '' },
  });
  const money = (v: number) => currency.formatMinor(v);

  const ledger = useMemo<LedgerRow[]>(() => {
    if (!c) return [];
    const rows: LedgerRow[] = [
      ...(c.payments ?? []).map((p, i) => ({
        key: `p${p.id ?? i}`, createdAt: p.createdAt, kind: 'payment' as const,
        label: p.order?.orderId ? t('order.number', { number: p.order.orderId }) : '',
        amountCents: currency.minor(p.amount), description: p.description ?? '',
      })),
      ...(c.orders ?? []).map((o) => ({
        key: `o${o.id}`, createdAt: o.createdAt, kind: 'order' as const,
        label: t('order.number', { number: o.orderId ?? o.id }),
        amountCents: sumCents((o.payments ?? []).filter((p) => p.type?.type === 'credit').map((p) => currency.minor(p.total))),
        description: (o.payments ?? []).map((p) => p.type?.name).filter(Boolean).join(', '),
      })),
    ];
    return mergeLedger(rows);
  }, [c, t, currency]);

  // Minor units of the store's currency (KWD fils): the ledger keeps every digit the server stored.
  const opening = currency.minor(c?.openingBalance ?? 0);
  const sale = currency.minor(c?.sale ?? 0);
  const paid = currency.minor(c?.paid ?? 0);
  const outstanding = currency.minor(c?.outstanding ?? 0) + opening;
  const limit = c?.creditLimit === null || c?.creditLimit === undefined || c?.creditLimit === '' ? null : currency.minor(c.creditLimit);

  const submit = handleSubmit((values) =>
    receive.mutate(values, {
      onSuccess: () => {
        toast.success(t('customers.paymentReceived'));
        reset({ amount: '', description: '' });
      },
      onError: (error) => {
        const banner = applyServerErrors(error, setError, ['amount', 'description']);
        if (banner) toast.error(banner);
      },
    }),
  );

  return (
    <>
      <form className="row customer-payment-form" onSubmit={(e) => void submit(e)} noValidate aria-label={t('customers.receivePayment')}>
        <MoneyInput label={t('customers.amount')} required error={errors.amount?.message} {...register('amount')} />
        <Input label={t('customers.description')} required error={errors.description?.message} containerClassName="grow" {...register('description')} />
        <Button type="submit" loading={receive.isPending}>{t('customers.receivePayment')}</Button>
      </form>
      <div className="summary-cards">
        <div className="summary-card"><span className="text-muted">{t('customers.openingBalance')}</span><strong>{money(opening)}</strong></div>
        <div className="summary-card"><span className="text-muted">{t('customers.totalCreditSale')}</span><strong>{money(sale)}</strong></div>
        <div className="summary-card"><span className="text-muted">{t('customers.totalPayments')}</span><strong>{money(paid)}</strong></div>
        <div className="summary-card"><span className="text-muted">{t('customers.outstanding')}</span><strong className={outstanding > 0 ? 'text-danger' : 'text-success'}>{money(outstanding)}</strong></div>
        <div className="summary-card"><span className="text-muted">{t('customers.creditLimit')}</span><strong>{limit === null ? t('customers.noLimit') : money(limit)}</strong></div>
      </div>
      {isLoading && <Spinner size="sm" />}
      <div className="table-scroll">
        <table className="data-table">
          <thead>
            <tr>
              <th>{t('customers.time')}</th>
              <th>{t('customers.type')}</th>
              <th>{t('customers.order')}</th>
              <th className="num">{t('customers.amount')}</th>
              <th>{t('customers.description')}</th>
            </tr>
          </thead>
          <tbody>
            {ledger.map((r) => (
              <tr key={r.key}>
                <td>{formatDateTime(r.createdAt)}</td>
                <td>{r.kind === 'payment' ? t('customers.payment') : t('customers.sale')}</td>
                <td>{r.label}</td>
                <td className="num">{money(r.amountCents)}</td>
                <td>{r.description}</td>
              </tr>
            ))}
            {!ledger.length && <tr><td colSpan={5} className="text-muted">{t('customers.noHistory')}</td></tr>}
          </tbody>
        </table>
      </div>
    </>
  );
}
