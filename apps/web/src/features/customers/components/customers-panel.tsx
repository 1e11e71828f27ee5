import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMoney } from '@/lib/money';
import { customerBalance } from '@pos/domain/ledger';
import { parseScaled } from '@pos/domain/money';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import type { Customer } from '@/features/catalogue-cache/types';
import { useCustomers } from '@/features/customers/api/customers';
import { CustomerForm } from './customer-form';

const PAGE_SIZE = 10;

/** Outstanding + opening balance, in minor units of the store's currency (issue 19: `digits` USD 2, JPY 0, KWD 3). */
export const balanceOf = (c: Customer, digits = 2): number =>
  customerBalance({ outstandingCents: parseScaled(c.outstanding ?? 0, digits), openingBalanceCents: parseScaled(c.openingBalance ?? 0, digits) });

export interface CustomersPanelProps {
  /** Fetch the list (the dialog: while open). */
  enabled?: boolean;
  /** The till: the customer on the sale and the Select column; without it (back office) there is none. */
  selectedId?: number | null;
  onSelect?: (customer: Customer) => void;
  /** A saved customer (created or updated). */
  onSaved: (customer: Customer) => void;
  /** The customer's payments and ledger (the till: a dialog; the back office: /admin/customers/:id). */
  onHistory: (customer: Customer) => void;
}

/**
 * Customers (issue 23: one component for the till's dialog and the back office's page): the
 * create/update form and a paged, searchable table; the till adds Select (arrows + Enter pick).
 */
export function CustomersPanel({ enabled = true, selectedId = null, onSelect, onSaved, onHistory }: CustomersPanelProps) {
  const currency = useMoney();
  const { t } = useTranslation('sale');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [active, setActive] = useState(0);
  const [editing, setEditing] = useState<Customer | null>(null);
  const { data, isFetching } = useCustomers({ page, itemsPerPage: PAGE_SIZE, q }, enabled);
  const rows = data?.['hydra:member'] ?? [];
  const total = data?.['hydra:totalItems'] ?? rows.length;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const columns = onSelect ? 6 : 5;

  return (
    <div className="customers-layout">
      <CustomerForm
        editing={editing}
        onCancel={() => setEditing(null)}
        onSaved={(c) => {
          setEditing(null);
          onSaved(c);
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
            if (!onSelect) return;
            if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              e.preventDefault();
              if (!rows.length) return;
              const d = e.key === 'ArrowDown' ? 1 : -1;
              setActive((i) => (((i + d) % rows.length) + rows.length) % rows.length);
            } else if (e.key === 'Enter' && rows[active]) {
              e.preventDefault();
              onSelect(rows[active]);
            }
          }}
          autoFocus
        />
        <div className="table-scroll">
          <table className="data-table" aria-busy={isFetching}>
            <thead>
              <tr>
                {onSelect && <th>{t('customers.select')}</th>}
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
                const current = onSelect && i === active;
                return (
                  <tr key={c.id} className={current ? 'row-active' : undefined} aria-selected={onSelect ? current : undefined}>
                    {onSelect && (
                      <td>
                        <Button size="sm" variant={c.id === selectedId ? 'primary' : 'secondary'} onClick={() => onSelect(c)}>
                          {c.id === selectedId ? t('customers.selected') : t('customers.select')}
                        </Button>
                      </td>
                    )}
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
                <tr><td colSpan={columns} className="text-muted">{isFetching ? <Spinner size="sm" /> : t('customers.none')}</td></tr>
              )}
            </tbody>
          </table>
        </div>
        <div className="row pager">
          <Button size="sm" variant="secondary" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>{t('pager.previous')}</Button>
          <span>{t('pager.page', { page, pages })}</span>
          <Button size="sm" variant="secondary" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>{t('pager.next')}</Button>
        </div>
      </div>
    </div>
  );
}
