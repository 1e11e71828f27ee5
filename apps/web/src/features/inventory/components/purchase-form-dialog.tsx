import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { toast } from '@/components/ui/toast';
import { useSession } from '@/lib/session';
import { useWorkingStore } from '@/lib/working-store';
import { FormDialog } from '@/features/list-table/components/form-dialog';
import { FormSelect } from '@/features/list-table/components/form-select';
import { toOptions, useOptionList } from '@/features/list-table/hooks/use-options';
import { useSaveEntity } from '@/features/list-table/hooks/use-save-entity';
import { applyServerErrors } from '@/features/list-table/hooks/use-server-errors';
import { toDateTimeLocal } from '@/features/list-table/lib/dates';
import { ItemPicker } from './item-picker.tsx';
import { asLineForm, LineGrid } from './line-grid.tsx';
import { PURCHASE_MODES, purchasePayload, purchaseSchema, type PurchaseForm } from '../lib/forms.ts';
import { addScanned, findScanned, linesFromOrder, linesFromPurchase, newLine } from '../lib/lines.ts';
import type { PaymentTypeBrief, Purchase, PurchaseOrder, Supplier } from '../lib/types.ts';

const FIELDS = ['createdAt', 'purchaseNumber', 'purchaseMode', 'purchaseOrder', 'supplier', 'paymentType', 'updateStocks', 'updatePrice', 'items'];

export interface PurchaseFormDialogProps {
  open: boolean;
  onClose: () => void;
  purchase: Purchase | null;
  /** The back office's /admin/purchasing/receipts/new and /:id: the same form as a page. */
  asPage?: boolean;
}

const iriOr = (collection: string, x: { '@id'?: string; id: number } | null | undefined) => (x ? (x['@id'] ?? `/api/${collection}/${x.id}`) : '');

/** "Create new purchase" / "Update purchase". Receiving against a PO marks it Used and raises stock (server). */
export function PurchaseFormDialog({ open, onClose, purchase, asPage }: PurchaseFormDialogProps) {
  const { t } = useTranslation('backoffice');
  const { user } = useSession();
  const store = useWorkingStore();
  const suppliers = useOptionList<Supplier>('/suppliers', {});
  const paymentTypes = useOptionList<PaymentTypeBrief>('/payments', { store: store?.id });
  const orders = useOptionList<PurchaseOrder>('/purchase_orders', { store: store?.id });
  const { register, handleSubmit, setError, setValue, getValues, setFocus, control, formState } = useForm<PurchaseForm>({
    resolver: zodResolver(purchaseSchema),
    defaultValues: {
      createdAt: toDateTimeLocal(purchase ? new Date(purchase.createdAt) : new Date()),
      purchaseNumber: purchase?.purchaseNumber ?? '',
      purchaseMode: purchase?.purchaseMode === 'Purchase order' ? 'Purchase order' : 'Items list',
      purchaseOrder: iriOr('purchase_orders', purchase?.purchaseOrder),
      supplier: iriOr('suppliers', purchase?.supplier),
      paymentType: iriOr('payments', purchase?.paymentType),
      updateStocks: purchase?.updateStocks ?? true,
      updatePrice: purchase?.updatePrice ?? true,
      items: purchase ? linesFromPurchase(purchase.items) : [],
    },
  });
  const mode = useWatch({ control, name: 'purchaseMode' });
  const poMode = mode === 'Purchase order';
  const save = useSaveEntity({
    createPath: '/purchases',
    invalidate: [['/purchases'], ['/purchase_orders'], ['options', '/purchase_orders'], ['/products']],
  });
  const e = formState.errors;

  const orderOptions = useMemo(() => {
    const own = purchase?.purchaseOrder?.id;
    // A used order cannot be offered again (spec 4), except the one this purchase already received.
    return (orders.data ?? [])
      .filter((o) => !o.isUsed || o.id === own)
      .map((o) => ({ value: iriOr('purchase_orders', o), label: `${o.poNumber}${o.supplier ? ` — ${o.supplier.name}` : ''}` }));
  }, [orders.data, purchase?.purchaseOrder?.id]);
  const iriOptions = (collection: string, rows: Array<{ id: number; name: string }> | undefined) =>
    toOptions(rows, (r) => r.name).map((o) => ({ ...o, value: `/api/${collection}/${o.value}` }));

  const modeField = register('purchaseMode');

  return (
    <FormDialog
      open={open}
      asPage={asPage}
      onClose={onClose}
      size="full"
      title={purchase ? t('purchases.update') : t('purchases.create')}
      saving={save.isPending}
      onSubmit={handleSubmit(async (v) => {
        if (!store || !user) return;
        try {
          await save.mutateAsync({ id: purchase?.id, body: purchasePayload(v, { storeId: store.id, userId: user.id }) });
          onClose();
        } catch (error) {
          applyServerErrors(error, setError, (m, title) => toast.error(m, { title }), FIELDS);
        }
      })}
    >
      <div className="form-row form-row--wrap">
        <Input type="datetime-local" label={t('purchases.date')} required error={e.createdAt?.message} {...register('createdAt')} />
        <Input label={t('purchases.purchaseNumber')} required autoFocus error={e.purchaseNumber?.message} {...register('purchaseNumber')} />
        <Select
          label={t('purchases.purchaseMode')}
          required
          options={PURCHASE_MODES.map((m) => ({ value: m, label: t(`purchases.modes.${m === 'Items list' ? 'itemsList' : 'purchaseOrder'}`) }))}
          error={e.purchaseMode?.message}
          {...modeField}
          onChange={async (ev) => {
            await modeField.onChange(ev);
            // Spec 4: changing the purchase mode clears the item list.
            setValue('items', []);
            setValue('purchaseOrder', '');
          }}
        />
        {poMode && (
          <FormSelect
            control={control}
            name="purchaseOrder"
            label={t('purchases.purchaseOrder')}
            required
            placeholder={t('common.choose')}
            options={orderOptions}
            onValueChange={(value) => {
              const po = (orders.data ?? []).find((o) => iriOr('purchase_orders', o) === value);
              setValue('items', po ? linesFromOrder(po.items, true) : [], { shouldValidate: formState.isSubmitted });
              if (po?.supplier) setValue('supplier', iriOr('suppliers', po.supplier));
            }}
          />
        )}
        <FormSelect control={control} name="supplier" label={t('purchases.supplier')} placeholder={t('common.choose')} options={iriOptions('suppliers', suppliers.data)} />
        <FormSelect
          control={control}
          name="paymentType"
          label={t('purchases.paymentType')}
          required
          placeholder={t('common.choose')}
          options={iriOptions('payments', paymentTypes.data)}
        />
      </div>
      <div className="form-row">
        <Checkbox label={t('purchases.updateStocks')} {...register('updateStocks')} />
        <Checkbox label={t('purchases.updatePrice')} {...register('updatePrice')} />
      </div>
      {poMode ? (
        // Against an order the lines are the order's: a scan finds its line and selects the received quantity.
        <ItemPicker
          scanOnly
          onPick={() => undefined}
          onScan={(p, variant) => {
            const at = findScanned(getValues('items'), p, variant);
            if (at.line < 0) toast.error(t('inventory.notOnOrder', { name: p.name }));
            else setFocus(at.variant >= 0 ? `items.${at.line}.variants.${at.variant}.quantity` : `items.${at.line}.quantity`, { shouldSelect: true });
          }}
        />
      ) : (
        <ItemPicker
          onPick={(p) => setValue('items', [...getValues('items'), newLine(p)], { shouldValidate: formState.isSubmitted })}
          onScan={(p, variant) => setValue('items', addScanned(getValues('items'), p, variant), { shouldValidate: formState.isSubmitted })}
        />
      )}
      <LineGrid {...asLineForm(control, register)} errors={e} showRequested={poMode} costLabel={t('purchases.purchasePrice')} />
    </FormDialog>
  );
}
