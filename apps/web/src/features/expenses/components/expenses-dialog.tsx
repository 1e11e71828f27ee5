import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { formatDateTime } from '@pos/domain/format';
import { useMoney } from '@/lib/money';
import { sumCents } from '@pos/domain/money';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { MoneyInput } from '@/components/ui/money-input';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { useSession } from '@/lib/session';
import { applyServerErrors } from '@/features/list-table/hooks/use-server-errors';
import { relativeTime, todayRange } from '@/features/list-table/lib/dates';
import { useCreateExpense, useExpenses } from '../api/expenses.ts';
import { expenseSchema, type ExpenseForm } from '../lib/expense-schema.ts';
import '@/features/list-table/backoffice.css';

export interface ExpensesDialogProps {
  open: boolean;
  onClose: () => void;
}

/** Expenses (ctrl+e): add form, date-time range search (today by default), total, relative times. */
export function ExpensesDialog({ open, onClose }: ExpensesDialogProps) {
  const currency = useMoney();
  const { t, i18n } = useTranslation('backoffice');
  const lng = i18n.language;
  const { store } = useSession();
  // The store's today (issue 19): the server reads the range on the store's clock.
  const [range, setRange] = useState(() => todayRange(new Date(), currency.timeZone));
  const [draft, setDraft] = useState(range);
  const list = useExpenses({ dateTimeFrom: range.from, dateTimeTo: range.to, store: store?.id });
  const create = useCreateExpense();
  const { register, handleSubmit, setError, reset, formState } = useForm<ExpenseForm>({
    resolver: zodResolver(expenseSchema),
    defaultValues: { description: '', amount: '' },
  });
  // Minor units of the store's currency (KWD fils).
  const total = useMemo(() => sumCents((list.data ?? []).map((x) => currency.minor(x.amount))), [list.data, currency]);
  const e = formState.errors;

  return (
    <Dialog open={open} onClose={onClose} size="lg" title={t('expenses.title')}>
      <form
        className="inline-form"
        aria-label={t('expenses.add')}
        noValidate
        onSubmit={handleSubmit(async (v) => {
          if (!store) return;
          try {
            await create.mutateAsync({ description: v.description.trim(), amount: v.amount.trim(), store: store.id });
            reset();
            // A new expense is "now": make sure the range shows it.
            const today = todayRange(new Date(), currency.timeZone);
            if (range.to < today.to) {
              setRange((r) => ({ ...r, to: today.to }));
              setDraft((r) => ({ ...r, to: today.to }));
            }
          } catch (error) {
            applyServerErrors(error, setError, (m, title) => toast.error(m, { title }), ['description', 'amount']);
          }
        })}
      >
        <Input label={t('expenses.description')} required autoFocus error={e.description?.message} {...register('description')} />
        <MoneyInput label={t('expenses.amount')} required error={e.amount?.message} {...register('amount')} />
        <Button type="submit" loading={create.isPending}>
          <span aria-hidden="true">+</span> {t('expenses.addButton')}
        </Button>
      </form>

      <form
        className="inline-form"
        role="search"
        aria-label={t('expenses.search')}
        onSubmit={(ev) => {
          ev.preventDefault();
          setRange(draft);
        }}
      >
        <Input type="datetime-local" label={t('common.from')} value={draft.from} onChange={(ev) => setDraft((d) => ({ ...d, from: ev.target.value }))} />
        <Input type="datetime-local" label={t('common.to')} value={draft.to} onChange={(ev) => setDraft((d) => ({ ...d, to: ev.target.value }))} />
        <Button type="submit" variant="secondary">
          {t('common.search')}
        </Button>
      </form>

      <p className="total-line">
        {t('expenses.total')}: <strong data-testid="expenses-total">{currency.formatMinor(total)}</strong>
      </p>

      {list.isPending ? (
        <Spinner />
      ) : (
        <table className="table" aria-label={t('expenses.title')}>
          <thead>
            <tr>
              <th scope="col">{t('expenses.time')}</th>
              <th scope="col">{t('expenses.description')}</th>
              <th scope="col">{t('expenses.amount')}</th>
            </tr>
          </thead>
          <tbody>
            {(list.data ?? []).length === 0 && (
              <tr>
                <td colSpan={3}>{list.isError ? t('list.fetchError') : t('list.empty')}</td>
              </tr>
            )}
            {(list.data ?? []).map((x) => (
              <tr key={x.id}>
                <td title={formatDateTime(x.createdAt)}>{relativeTime(x.createdAt, new Date(), lng)}</td>
                <td>{x.description}</td>
                <td className="num">{currency.formatWire(x.amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Dialog>
  );
}
