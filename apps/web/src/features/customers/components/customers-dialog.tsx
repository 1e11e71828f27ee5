import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMoney } from '@/lib/money';
import { customerBalance } from '@pos/domain/ledger';
import { parseScaled } from '@pos/domain/money';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import type { Customer } from '@/features/catalogue-cache/types';
import { useCustomers } from '@/features/customers/api/customers';
import { CustomerForm } from './customer-form';

const PAGE_SIZE = 10;

/** Outstanding + opening balance, in minor units of the store's currency (issue 19: `digits` USD 2, JPY 0, KWD 3). */
export const balanceOf = (c: Customer, digits = 2): number =>
  customerBalance({ outstandingCents: parseScaled(c.outstanding ?? 0, digits), openingBalanceCents: parseScaled(c.openingBalance ?? 0, digits) });

export interface CustomersDialogProps {
  open: boolean;
  onClose: () => void;
  selectedId: number | null;
  onSelect: (customer: Customer) => void;
  onHistory: (customer: Customer) => void;
  locale?: string;
}

/** Customers (ctrl+shift+c): the create/update form and a paged, searchable table with Select and Actions. */
export function CustomersDialog({ open, onClose, selectedId, onSelect, onHistory }: CustomersDialogProps) {
  const currency = useMoney();
  const { t } = useTranslation('sale');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [active, setActive] = useState(0);
  const [editing, setEditing] = useState<Customer | null>(null);
  const { data, isFetching } = useCustomers({ page, itemsPerPage: PAGE_SIZE, q }, open);
  const rows = data?.['hydra:member'] ?? [];
  const total = data?.['hydra:totalItems'] ?? rows.length;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));

  const pick = (c: Customer) => {
    onSelect(c);
    onClose();
  };

  return (
    <Dialog open={open} onClose={onClose} title={t('customers.title')} size="xl">
      <div className="customers-layout">
        <CustomerForm
          editing={editing}
          onCancel={() => setEditing(null)}
          onSaved={(c) => {
            setEditing(null);
            pick(c);
          }}
        />
        <div className="stack grow">
          <Input
            label={t('customers.search')}
            value={q}
            onChange={(e) => {
              setQ(e.target.value);
              setPage(1);
              setActive(0);
            }}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
                e.preventDefault();
                if (!rows.length) return;
                const d = e.key === 'ArrowDown' ? 1 : -1;
                setActive((i) => (((i + d) % rows.length) + rows.length) % rows.length);
              } else if (e.key === 'Enter' && rows[active]) {
                e.preventDefault();
                pick(rows[active]);
              }
            }}
            autoFocus
          />
          <table className="data-table" aria-busy={isFetching}>
            <thead>
              <tr>
                <th>{t('customers.select')}</th>
                <th>{t('customers.name')}</th>
                <th>{t('customers.phone')}</th>
                <th>{t('customers.cnic')}</th>
                <th className="num">{t('customers.outstanding')}</th>
                <th>{t('customers.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((c, i) => {
                const balance = balanceOf(c, currency.digits);
                return (
                  <tr key={c.id} className={i === active ? 'row-active' : undefined} aria-selected={i === active}>
                    <td>
                      <Button size="sm" variant={c.id === selectedId ? 'primary' : 'secondary'} onClick={() => pick(c)}>
                        {c.id === selectedId ? t('customers.selected') : t('customers.select')}
                      </Button>
                    </td>
                    <td>{c.name}</td>
                    <td>{c.phone}</td>
                    <td>{c.cnic}</td>
                    <td className={balance > 0 ? 'num text-danger' : 'num'}>{currency.formatMinor(balance)}</td>
                    <td className="row">
                      <Button size="sm" variant="ghost" onClick={() => setEditing(c)}>{t('customers.edit')}</Button>
                      <Button size="sm" variant="ghost" onClick={() => onHistory(c)}>{t('customers.history')}</Button>
                    </td>
                  </tr>
                );
              })}
              {!rows.length && (
                <tr><td colSpan={6} className="text-muted">{isFetching ? <Spinner size="sm" /> : t('customers.none')}</td></tr>
              )}
            </tbody>
          </table>
          <div className="row pager">
            <Button size="sm" variant="secondary" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>{t('pager.previous')}</Button>
            <span>{t('pager.page', { page, pages })}</span>
            <Button size="sm" variant="secondary" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>{t('pager.next')}</Button>
          </div>
        </div>
      </div>
    </Dialog>
  );
}
