import { useMemo, useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@pos/domain/format';
import { Button } from '@/components/ui/button';
import { confirm } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/toast';
import { errorText } from '@/lib/form-errors';
import { useWorkingStore } from '@/lib/working-store';
import { apiDelete } from '@/features/list-table/api/http';
import { ListTable } from '@/features/list-table/components/list-table';
import { PurchaseOrderDialog } from './purchase-order-dialog.tsx';
import type { PurchaseOrder } from '../lib/types.ts';

/** The back office opens records by URL (/admin/purchasing/...): Add and Edit call this instead of opening a dialog. */
export interface PurchaseOrdersTabProps {
  onOpen?: (id: number | 'new') => void;
}

/** Purchase orders of the current store: edit and delete only while Open (spec 4). */
export function PurchaseOrdersTab({ onOpen }: PurchaseOrdersTabProps = {}) {
  const { t } = useTranslation('backoffice');
  const store = useWorkingStore();
  const client = useQueryClient();
  const [form, setForm] = useState<{ order: PurchaseOrder | null } | null>(null);

  const columns = useMemo<ColumnDef<PurchaseOrder, any>[]>(
    () => [
      { id: 'poNumber', accessorKey: 'poNumber', header: t('purchaseOrders.poNumber') },
      { id: 'supplier.name', accessorFn: (r) => r.supplier?.name ?? '', header: t('purchaseOrders.supplier') },
      {
        id: 'isUsed',
        accessorKey: 'isUsed',
        header: t('purchaseOrders.status'),
        enableColumnFilter: false,
        cell: ({ getValue }) => (
          <span className={`badge ${getValue() ? 'badge-success' : 'badge-info'}`}>{getValue() ? t('purchaseOrders.used') : t('purchaseOrders.open')}</span>
        ),
      },
      { id: 'createdAt', accessorKey: 'createdAt', header: t('common.createdAt'), cell: ({ getValue }) => formatDate(getValue()) },
      { id: 'store.name', accessorFn: (r) => r.store?.name ?? '', header: t('common.store'), enableColumnFilter: false },
      {
        id: 'actions',
        header: t('common.actions'),
        enableSorting: false,
        enableColumnFilter: false,
        enableHiding: false,
        cell: ({ row }) =>
          row.original.isUsed ? null : (
            <div className="row-actions">
              <Button size="sm" variant="secondary" aria-label={t('common.editNamed', { name: row.original.poNumber })} onClick={() => (onOpen ? onOpen(row.original.id) : setForm({ order: row.original }))}>
                <span aria-hidden="true">✎</span> {t('common.edit')}
              </Button>
              <Button
                size="sm"
                variant="danger"
                aria-label={t('common.deleteNamed', { name: row.original.poNumber })}
                onClick={async () => {
                  if (!(await confirm(t('purchaseOrders.deleteQ'), { danger: true }))) return;
                  try {
                    await apiDelete(`/purchase_orders/${row.original.id}`);
                    await client.invalidateQueries({ queryKey: ['/purchase_orders'] });
                    await client.invalidateQueries({ queryKey: ['options', '/purchase_orders'] });
                  } catch (error) {
                    toast.error(errorText(error));
                  }
                }}
              >
                {t('common.delete')}
              </Button>
            </div>
          ),
      },
    ],
    [t, client, onOpen],
  );

  return (
    <>
      <ListTable<PurchaseOrder>
        url="/purchase_orders"
        queryKey={['/purchase_orders']}
        params={{ store: store?.id }}
        defaultSort={{ id: 'createdAt', desc: true }}
        columns={columns}
        toolbar={<Button onClick={() => (onOpen ? onOpen('new') : setForm({ order: null }))}><span aria-hidden="true">+</span> {t('purchaseOrders.add')}</Button>}
      />
      {form && <PurchaseOrderDialog key={form.order?.id ?? 'new'} open order={form.order} onClose={() => setForm(null)} />}
    </>
  );
}
