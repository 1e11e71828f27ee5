import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { formatDateTime } from '@pos/domain/format';
import { useMoney } from '@/lib/money';
import { mergeLedger, supplierOutstanding } from '@pos/domain/ledger';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { MoneyInput } from '@/components/ui/money-input';
import { Select } from '@/components/ui/select';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { applyServerErrors } from '@/features/list-table/hooks/use-server-errors';
import { relativeTime } from '@/features/list-table/lib/dates';
import { useCreateSupplierPayment, useSupplierLedger } from '../api/supplier-ledger.ts';
import { cleanNumber } from '../lib/lines.ts';
import { supplierPaymentSchema, type SupplierPaymentForm } from '../lib/forms.ts';
import type { Purchase, Supplier, SupplierPayment } from '../lib/types.ts';

type Entry =
  | { kind: 'payment'; createdAt: string; row: SupplierPayment }
  | { kind: 'purchase'; createdAt: string; row: Purchase };

const purchaseNo = (p: SupplierPayment['purchase']) => (p && typeof p === 'object' ? (p.purchaseNumber ?? '') : '');

/** "{supplier name}'s Ledger": payment form, four summary boxes, history newest first (spec 2.5, 4). */
export function SupplierLedgerDialog({ supplier, onClose }: { supplier: Supplier; onClose: () => void }) {
  const currency = useMoney();
  const { t, i18n } = useTranslation('backoffice');
  const lng = i18n.language;
  const { payments, purchases } = useSupplierLedger(supplier.id);
  const create = useCreateSupplierPayment(supplier.id);
  const { register, handleSubmit, setError, reset, formState } = useForm<SupplierPaymentForm>({
    resolver: zodResolver(supplierPaymentSchema),
    defaultValues: { amount: '', description: '', purchase: '' },
  });

  const figures = useMemo(() => {
    // Minor units of the store's currency (KWD fils): every digit the server stored.
    const credit = (purchases.data ?? []).filter((p) => p.paymentType?.type === 'credit').map((p) => currency.minor(p.total));
    const paid = (payments.data ?? []).map((p) => currency.minor(p.amount));
    const opening = currency.minor(supplier.openingBalance);
    return {
      opening,
      purchases: credit.reduce((a, b) => a + b, 0),
      payments: paid.reduce((a, b) => a + b, 0),
      outstanding: supplierOutstanding({ creditPurchaseTotals: credit, payments: paid, openingBalance: opening }),
    };
  }, [payments.data, purchases.data, supplier.openingBalance, currency]);

  const entries = useMemo<Entry[]>(
    () =>
      mergeLedger<Entry>([
        ...(payments.data ?? []).map((row) => ({ kind: 'payment' as const, createdAt: row.createdAt, row })),
        ...(purchases.data ?? []).map((row) => ({ kind: 'purchase' as const, createdAt: row.createdAt, row })),
      ]),
    [payments.data, purchases.data],
  );

  const cur = (minor: number) => currency.formatMinor(minor);
  const e = formState.errors;
  const loading = payments.isPending || purchases.isPending;

  return (
    <Dialog open onClose={onClose} size="xl" title={t('suppliers.ledgerTitle', { name: supplier.name })}>
      <form
        className="inline-form ledger-form"
        noValidate
        onSubmit={handleSubmit(async (v) => {
          try {
            await create.mutateAsync({
              amount: cleanNumber(v.amount),
              description: v.description.trim(),
              ...(v.purchase ? { purchase: v.purchase } : {}),
              supplier: supplier['@id'] ?? `/api/suppliers/${supplier.id}`,
            });
            reset();
            toast.success(t('suppliers.paymentSaved'));
          } catch (error) {
            applyServerErrors(error, setError, (m, title) => toast.error(m, { title }), ['amount', 'description', 'purchase']);
          }
        })}
      >
        <MoneyInput label={t('suppliers.amount')} required error={e.amount?.message} {...register('amount')} />
        <Input label={t('suppliers.description')} required error={e.description?.message} {...register('description')} />
        <Select
          label={t('suppliers.againstPurchase')}
          placeholder="—"
          options={(purchases.data ?? []).map((p) => ({ value: p['@id'] ?? `/api/purchases/${p.id}`, label: p.purchaseNumber }))}
          {...register('purchase')}
        />
        <Button type="submit" loading={create.isPending}>
          {t('suppliers.pay')}
        </Button>
      </form>

      <div className="summary-boxes" aria-label={t('suppliers.summary')}>
        <div className="summary-box">
          <span>{t('suppliers.openingBalance')}</span>
          <strong data-testid="ledger-opening">{cur(figures.opening)}</strong>
        </div>
        <div className="summary-box">
          <span>{t('suppliers.creditPurchases')}</span>
          <strong data-testid="ledger-purchases">{cur(figures.purchases)}</strong>
        </div>
        <div className="summary-box">
          <span>{t('suppliers.totalPayments')}</span>
          <strong data-testid="ledger-payments">{cur(figures.payments)}</strong>
        </div>
        <div className={`summary-box ${figures.outstanding > 0 ? 'summary-box-danger' : 'summary-box-success'}`}>
          <span>{t('suppliers.outstanding')}</span>
          <strong data-testid="ledger-outstanding">{cur(figures.outstanding)}</strong>
        </div>
      </div>

      {loading ? (
        <Spinner />
      ) : (
        <table className="table" aria-label={t('suppliers.history')}>
          <thead>
            <tr>
              <th scope="col">{t('suppliers.time')}</th>
              <th scope="col">{t('suppliers.amount')}</th>
              <th scope="col">{t('suppliers.description')}</th>
              <th scope="col">{t('suppliers.purchaseNo')}</th>
            </tr>
          </thead>
          <tbody>
            {entries.length === 0 && (
              <tr>
                <td colSpan={4}>{t('list.empty')}</td>
              </tr>
            )}
            {entries.map((entry) => (
              <tr key={`${entry.kind}-${entry.row.id}`} className={entry.kind === 'purchase' ? 'ledger-purchase' : 'ledger-payment'}>
                <td title={formatDateTime(entry.createdAt)}>{relativeTime(entry.createdAt, new Date(), lng)}</td>
                <td>{cur(currency.minor(entry.kind === 'payment' ? entry.row.amount : entry.row.total))}</td>
                <td>
                  {entry.kind === 'payment'
                    ? entry.row.description
                    : t('suppliers.purchaseEntry', { type: entry.row.paymentType?.name ?? '' })}
                </td>
                <td>{entry.kind === 'payment' ? purchaseNo(entry.row.purchase) : entry.row.purchaseNumber}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Dialog>
  );
}
