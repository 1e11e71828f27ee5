import { useMemo, useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { confirm } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/toast';
import { errorText } from '@/lib/form-errors';
import { useWorkingStore } from '@/lib/working-store';
import { apiDelete } from '@/features/list-table/api/http';
import { ListTable } from '@/features/list-table/components/list-table';
import { money } from '@/features/list-table/lib/amounts';
import { SupplierFormDialog } from './supplier-form-dialog.tsx';
import { SupplierLedgerDialog } from './supplier-ledger-dialog.tsx';
import type { Supplier } from '../lib/types.ts';

/** The back office opens records by URL (/admin/purchasing/...): Add and Edit call this instead of opening a dialog. */
export interface SuppliersTabProps {
  onOpen?: (id: number | 'new') => void;
}

/** Suppliers of the current store: edit, delete (with its purchases and POs), ledger. */
export function SuppliersTab({ onOpen }: SuppliersTabProps = {}) {
  const { t, i18n } = useTranslation('backoffice');
  const store = useWorkingStore();
  const client = useQueryClient();
  const [form, setForm] = useState<{ supplier: Supplier | null } | null>(null);
  const [ledger, setLedger] = useState<Supplier | null>(null);
  const lng = i18n.language;

  const columns = useMemo<ColumnDef<Supplier, any>[]>(
    () => [
      { id: 'name', accessorKey: 'name', header: t('suppliers.name') },
      { id: 'phone', accessorKey: 'phone', header: t('suppliers.phone') },
      { id: 'email', accessorKey: 'email', header: t('suppliers.email') },
      { id: 'openingBalance', accessorKey: 'openingBalance', header: t('suppliers.openingBalance'), cell: ({ getValue }) => money(getValue(), lng) },
      {
        id: 'stores',
        accessorFn: (r) => (r.stores ?? []).map((s) => s.name).join(', '),
        header: t('common.stores'),
        enableSorting: false,
        enableColumnFilter: false,
      },
      {
        id: 'actions',
        header: t('common.actions'),
        enableSorting: false,
        enableColumnFilter: false,
        enableHiding: false,
        cell: ({ row }) => {
          const s = row.original;
          return (
            <div className="row-actions">
              <Button size="sm" variant="secondary" aria-label={t('common.editNamed', { name: s.name })} onClick={() => (onOpen ? onOpen(s.id) : setForm({ supplier: s }))}>
                <span aria-hidden="true">✎</span> {t('common.edit')}
              </Button>
              <Button
                size="sm"
                variant="danger"
                aria-label={t('common.deleteNamed', { name: s.name })}
                onClick={async () => {
                  if (!(await confirm(t('suppliers.deleteQ', { name: s.name }), { danger: true }))) return;
                  try {
                    await apiDelete(`/suppliers/${s.id}`);
                    await Promise.all(['/suppliers', '/purchases', '/purchase_orders'].map((k) => client.invalidateQueries({ queryKey: [k] })));
                  } catch (error) {
                    toast.error(errorText(error));
                  }
                }}
              >
                {t('common.delete')}
              </Button>
              <Button size="sm" variant="secondary" aria-label={t('suppliers.ledgerNamed', { name: s.name })} onClick={() => setLedger(s)}>
                {t('suppliers.ledger')}
              </Button>
            </div>
          );
        },
      },
    ],
    [t, lng, client, onOpen],
  );

  return (
    <>
      <ListTable<Supplier>
        url="/suppliers"
        queryKey={['/suppliers']}
        params={{ store: store?.id }}
        columns={columns}
        toolbar={<Button onClick={() => (onOpen ? onOpen('new') : setForm({ supplier: null }))}><span aria-hidden="true">+</span> {t('suppliers.add')}</Button>}
      />
      {form && <SupplierFormDialog key={form.supplier?.id ?? 'new'} open supplier={form.supplier} onClose={() => setForm(null)} />}
      {ledger && <SupplierLedgerDialog supplier={ledger} onClose={() => setLedger(null)} />}
    </>
  );
}
