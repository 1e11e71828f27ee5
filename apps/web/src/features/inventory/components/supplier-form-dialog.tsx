import { useTranslation } from 'react-i18next';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Input } from '@/components/ui/input';
import { MoneyInput } from '@/components/ui/money-input';
import { toast } from '@/components/ui/toast';
import { useWorkingStore } from '@/lib/working-store';
import { FormDialog } from '@/features/list-table/components/form-dialog';
import { MultiSelect } from '@/features/list-table/components/multi-select';
import { toOptions, useOptionList } from '@/features/list-table/hooks/use-options';
import { useSaveEntity } from '@/features/list-table/hooks/use-save-entity';
import { applyServerErrors } from '@/features/list-table/hooks/use-server-errors';
import { supplierPayload, supplierSchema, type SupplierForm } from '../lib/forms.ts';
import type { Supplier } from '../lib/types.ts';

const FIELDS = ['name', 'phone', 'email', 'openingBalance', 'stores'];

export interface SupplierFormDialogProps {
  open: boolean;
  onClose: () => void;
  supplier: Supplier | null;
  /** Called with the saved supplier (the PO form selects it). */
  onSaved?: (supplier: Supplier) => void;
  /** The back office's /admin/purchasing/suppliers/new and /:id: the same form as a page. */
  asPage?: boolean;
}

/** "Create Supplier" serves create and update. */
export function SupplierFormDialog({ open, onClose, supplier, onSaved, asPage }: SupplierFormDialogProps) {
  const { t } = useTranslation('backoffice');
  const store = useWorkingStore();
  const stores = toOptions(useOptionList<{ id: number; name: string }>('/stores', {}).data, (s) => s.name);
  const { register, handleSubmit, setError, formState, control } = useForm<SupplierForm>({
    resolver: zodResolver(supplierSchema),
    defaultValues: {
      name: supplier?.name ?? '',
      phone: supplier?.phone ?? '',
      email: supplier?.email ?? '',
      openingBalance: supplier?.openingBalance === null || supplier?.openingBalance === undefined ? '0' : String(supplier.openingBalance),
      stores: supplier?.stores?.length ? supplier.stores.map((s) => String(s.id)) : store ? [String(store.id)] : [],
    },
  });
  const save = useSaveEntity<Supplier>({ createPath: '/suppliers', invalidate: [['/suppliers'], ['options', '/suppliers']] });
  const e = formState.errors;
  return (
    <FormDialog
      open={open}
      asPage={asPage}
      onClose={onClose}
      title={supplier ? t('suppliers.update') : t('suppliers.create')}
      saving={save.isPending}
      onSubmit={handleSubmit(async (v) => {
        try {
          const saved = await save.mutateAsync({ id: supplier?.id, body: supplierPayload(v) });
          onSaved?.(saved);
          onClose();
        } catch (error) {
          applyServerErrors(error, setError, (m, title) => toast.error(m, { title }), FIELDS);
        }
      })}
    >
      <Input label={t('suppliers.name')} required autoFocus error={e.name?.message} {...register('name')} />
      <Input label={t('suppliers.phone')} required error={e.phone?.message} {...register('phone')} />
      <Input label={t('suppliers.email')} type="email" required error={e.email?.message} {...register('email')} />
      <MoneyInput label={t('suppliers.openingBalance')} allowNegative required error={e.openingBalance?.message} {...register('openingBalance')} />
      <Controller
        control={control}
        name="stores"
        render={({ field, fieldState }) => (
          <MultiSelect label={t('common.stores')} required options={stores} value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
        )}
      />
    </FormDialog>
  );
}
