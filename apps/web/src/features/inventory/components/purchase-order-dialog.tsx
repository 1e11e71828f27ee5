import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/toast';
import { useWorkingStore } from '@/lib/working-store';
import { FormDialog } from '@/features/list-table/components/form-dialog';
import { FormSelect } from '@/features/list-table/components/form-select';
import { toOptions, useOptionList } from '@/features/list-table/hooks/use-options';
import { useSaveEntity } from '@/features/list-table/hooks/use-save-entity';
import { applyServerErrors } from '@/features/list-table/hooks/use-server-errors';
import { toDateTimeLocal } from '@/features/list-table/lib/dates';
import { ItemPicker } from './item-picker.tsx';
import { asLineForm, LineGrid } from './line-grid.tsx';
import { SupplierFormDialog } from './supplier-form-dialog.tsx';
import { purchaseOrderPayload, purchaseOrderSchema, type PurchaseOrderForm } from '../lib/forms.ts';
import { addScanned, linesFromOrder, newLine } from '../lib/lines.ts';
import type { PurchaseOrder, Supplier } from '../lib/types.ts';

const FIELDS = ['createdAt', 'poNumber', 'supplier', 'items'];

export interface PurchaseOrderDialogProps {
  open: boolean;
  onClose: () => void;
  order: PurchaseOrder | null;
  /** The back office's /admin/purchasing/orders/new and /:id: the same form as a page. */
  asPage?: boolean;
}

/** "Create purchase order" / "Update purchase order" (full size). */
export function PurchaseOrderDialog({ open, onClose, order, asPage }: PurchaseOrderDialogProps) {
  const { t } = useTranslation('backoffice');
  const store = useWorkingStore();
  const suppliers = useOptionList<Supplier>('/suppliers', {});
  const [addSupplier, setAddSupplier] = useState(false);
  const { register, handleSubmit, setError, setValue, getValues, control, formState } = useForm<PurchaseOrderForm>({
    resolver: zodResolver(purchaseOrderSchema),
    defaultValues: {
      createdAt: toDateTimeLocal(order ? new Date(order.createdAt) : new Date()),
      poNumber: order?.poNumber ?? '',
      supplier: order?.supplier?.['@id'] ?? (order?.supplier ? `/api/suppliers/${order.supplier.id}` : ''),
      items: order ? linesFromOrder(order.items, false) : [],
    },
  });
  const save = useSaveEntity({ createPath: '/purchase_orders', invalidate: [['/purchase_orders'], ['options', '/purchase_orders']] });
  const e = formState.errors;
  const supplierOptions = toOptions(suppliers.data, (s) => s.name).map((o) => ({ ...o, value: `/api/suppliers/${o.value}` }));

  return (
    <>
      <FormDialog
        open={open}
        asPage={asPage}
        onClose={onClose}
        size="full"
        title={order ? t('purchaseOrders.update') : t('purchaseOrders.create')}
        saving={save.isPending}
        onSubmit={handleSubmit(async (v) => {
          if (!store) return;
          try {
            await save.mutateAsync({ id: order?.id, body: purchaseOrderPayload(v, store.id) });
            onClose();
          } catch (error) {
            applyServerErrors(error, setError, (m, title) => toast.error(m, { title }), FIELDS);
          }
        })}
      >
        <div className="form-row">
          <Input type="datetime-local" label={t('purchaseOrders.date')} required error={e.createdAt?.message} {...register('createdAt')} />
          <Input label={t('purchaseOrders.poNumber')} required autoFocus error={e.poNumber?.message} {...register('poNumber')} />
          <div className="inline-form">
            <FormSelect control={control} name="supplier" label={t('purchaseOrders.supplier')} required placeholder={t('common.choose')} options={supplierOptions} />
            <Button variant="secondary" aria-label={t('suppliers.addNew')} title={t('suppliers.addNew')} onClick={() => setAddSupplier(true)}>
              +
            </Button>
          </div>
        </div>
        <ItemPicker
          onPick={(p) => {
            const items = getValues('items');
            setValue('items', [...items, newLine(p)], { shouldValidate: formState.isSubmitted });
          }}
          onScan={(p, variant) => setValue('items', addScanned(getValues('items'), p, variant), { shouldValidate: formState.isSubmitted })}
        />
        <LineGrid {...asLineForm(control, register)} errors={e} costLabel={t('purchaseOrders.unitCost')} />
      </FormDialog>
      {addSupplier && (
        <SupplierFormDialog
          open
          supplier={null}
          onClose={() => setAddSupplier(false)}
          onSaved={(s) => {
            void suppliers.refetch().then(() => setValue('supplier', s['@id'] ?? `/api/suppliers/${s.id}`, { shouldValidate: true }));
          }}
        />
      )}
    </>
  );
}
