import { useMemo, useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@pos/domain/format';
import { Button } from '@/components/ui/button';
import { confirm } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/toast';
import { errorText } from '@/lib/form-errors';
import { useWorkingStore } from '@/lib/working-store';
import { apiDelete } from '@/features/list-table/api/http';
import { ListTable } from '@/features/list-table/components/list-table';
import { money } from '@/features/list-table/lib/amounts';
import { PurchaseDetailDialog } from './purchase-detail-dialog.tsx';
import { PurchaseFormDialog } from './purchase-form-dialog.tsx';
import type { Purchase } from '../lib/types.ts';

/** The back office opens records by URL (/admin/purchasing/...): Add and Edit call this instead of opening a dialog. */
export interface PurchasesTabProps {
  onOpen?: (id: number | 'new') => void;
}

/** Purchase list of the current store (spec 2.5 Inventory dialog). */
export function PurchasesTab({ onOpen }: PurchasesTabProps = {}) {
  const { t, i18n } = useTranslation('backoffice');
  const store = useWorkingStore();
  const client = useQueryClient();
  const [form, setForm] = useState<{ purchase: Purchase | null } | null>(null);
  const [detail, setDetail] = useState<Purchase | null>(null);
  const lng = i18n.language;

  const columns = useMemo<ColumnDef<Purchase, any>[]>(
    () => [
      {
        id: 'purchaseNumber',
        accessorKey: 'purchaseNumber',
        header: t('purchases.purchaseNumber'),
        cell: ({ row }) => (
          <Button variant="link" size="sm" onClick={() => setDetail(row.original)}>
            {row.original.purchaseNumber}
          </Button>
        ),
      },
      { id: 'purchaseOrder.poNumber', accessorFn: (r) => r.purchaseOrder?.poNumber ?? '', header: t('purchases.purchaseOrder') },
      { id: 'supplier.name', accessorFn: (r) => r.supplier?.name ?? '', header: t('purchases.supplier') },
      {
        id: 'purchaseMode',
        accessorKey: 'purchaseMode',
        header: t('purchases.purchaseMode'),
        cell: ({ getValue }) => (getValue() === 'Purchase order' ? t('purchases.modes.purchaseOrder') : getValue() ? t('purchases.modes.itemsList') : ''),
      },
      { id: 'total', accessorKey: 'total', header: t('purchases.purchaseTotal'), enableColumnFilter: false, cell: ({ getValue }) => money(getValue(), lng) },
      { id: 'paymentType.name', accessorFn: (r) => r.paymentType?.name ?? '', header: t('purchases.paymentType') },
      { id: 'createdAt', accessorKey: 'createdAt', header: t('common.createdAt'), cell: ({ getValue }) => formatDateTime(getValue()) },
      { id: 'store.name', accessorFn: (r) => r.store?.name ?? '', header: t('common.store'), enableColumnFilter: false },
      {
        id: 'actions',
        header: t('common.actions'),
        enableSorting: false,
        enableColumnFilter: false,
        enableHiding: false,
        cell: ({ row }) => (
          <div className="row-actions">
            <Button size="sm" variant="secondary" aria-label={t('common.editNamed', { name: row.original.purchaseNumber })} onClick={() => (onOpen ? onOpen(row.original.id) : setForm({ purchase: row.original }))}>
              <span aria-hidden="true">✎</span> {t('common.edit')}
            </Button>
            <Button
              size="sm"
              variant="danger"
              aria-label={t('common.deleteNamed', { name: row.original.purchaseNumber })}
              onClick={async () => {
                if (!(await confirm(t('purchases.deleteQ'), { danger: true }))) return;
                try {
                  await apiDelete(`/purchases/${row.original.id}`);
                  await Promise.all([client.invalidateQueries({ queryKey: ['/purchases'] }), client.invalidateQueries({ queryKey: ['/purchase_orders'] })]);
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
    [t, lng, client, onOpen],
  );

  return (
    <>
      <ListTable<Purchase>
        url="/purchases"
        queryKey={['/purchases']}
        params={{ store: store?.id }}
        defaultSort={{ id: 'createdAt', desc: true }}
        columns={columns}
        toolbar={<Button onClick={() => (onOpen ? onOpen('new') : setForm({ purchase: null }))}><span aria-hidden="true">+</span> {t('purchases.add')}</Button>}
      />
      {form && <PurchaseFormDialog key={form.purchase?.id ?? 'new'} open purchase={form.purchase} onClose={() => setForm(null)} />}
      {detail && <PurchaseDetailDialog purchase={detail} onClose={() => setDetail(null)} />}
    </>
  );
}
