import { useMemo } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Input } from '@/components/ui/input';
import { useSession } from '@/lib/session';
import { FormDialog } from '@/features/list-table/components/form-dialog';
import { MultiSelect } from '@/features/list-table/components/multi-select';
import { Select } from '@/components/ui/select';
import { CrudTab, type EntityFormProps } from './crud-tab.tsx';
import { PAYMENT_KINDS, paymentTypeSchema, type PaymentTypeForm } from '../lib/schemas.ts';
import { useFormSubmit } from '../lib/use-form-submit.ts';
import { storeIds, storeIri, storeNames, useStoreOptions } from '../lib/store-options.ts';
import type { PaymentTypeRow } from '../lib/types.ts';

const FIELDS = ['name', 'type', 'canHaveChangeDue', 'stores'];

function PaymentTypeFormDialog({ open, onClose, entity }: EntityFormProps<PaymentTypeRow>) {
  const { t } = useTranslation('backoffice');
  const { store } = useSession();
  const stores = useStoreOptions();
  const { register, handleSubmit, setError, formState, control } = useForm<PaymentTypeForm>({
    resolver: zodResolver(paymentTypeSchema),
    defaultValues: {
      name: entity?.name ?? '',
      type: (PAYMENT_KINDS as readonly string[]).includes(entity?.type ?? '') ? (entity!.type as PaymentTypeForm['type']) : 'cash',
      canHaveChangeDue: !!entity?.canHaveChangeDue,
      stores: entity ? storeIds(entity.stores) : store ? [String(store.id)] : [],
    },
  });
  const { submit, saving } = useFormSubmit<PaymentTypeForm>({
    createPath: '/payments',
    invalidate: [['/payments'], ['options', '/payments']],
    id: entity?.id,
    onDone: onClose,
    setError,
    fields: FIELDS,
  });
  const e = formState.errors;
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={entity ? t('paymentTypes.update') : t('paymentTypes.create')}
      saving={saving}
      onSubmit={handleSubmit((v) => submit({ name: v.name.trim(), type: v.type, canHaveChangeDue: v.canHaveChangeDue, stores: v.stores.map(storeIri) }))}
    >
      <Input label={t('common.name')} required autoFocus error={e.name?.message} {...register('name')} />
      <Select
        label={t('paymentTypes.type')}
        required
        options={PAYMENT_KINDS.map((k) => ({ value: k, label: t(`paymentTypes.kinds.${k}`) }))}
        error={e.type?.message}
        {...register('type')}
      />
      <label className="checkbox">
        <input type="checkbox" {...register('canHaveChangeDue')} /> {t('paymentTypes.canHaveChangeDue')}
      </label>
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

export function PaymentTypesTab() {
  const { t } = useTranslation('backoffice');
  const { store } = useSession();
  const columns = useMemo<ColumnDef<PaymentTypeRow, any>[]>(
    () => [
      { id: 'name', accessorKey: 'name', header: t('common.name') },
      { id: 'type', accessorKey: 'type', header: t('paymentTypes.type'), cell: ({ getValue }) => t(`paymentTypes.kinds.${getValue()}`, { defaultValue: String(getValue() ?? '') }) },
      {
        id: 'canHaveChangeDue',
        accessorKey: 'canHaveChangeDue',
        header: t('paymentTypes.canHaveChangeDue'),
        enableColumnFilter: false,
        cell: ({ getValue }) => (getValue() ? t('common.yes') : t('common.no')),
      },
      { id: 'stores', accessorFn: (r) => storeNames(r.stores), header: t('common.stores'), enableSorting: false, enableColumnFilter: false },
    ],
    [t],
  );
  return (
    <CrudTab<PaymentTypeRow>
      url="/payments"
      params={{ store: store?.id }}
      columns={columns}
      addLabel={t('paymentTypes.add')}
      rowLabel={(r) => r.name}
      toggle={{ question: (r) => t(r.isActive ? 'paymentTypes.deactivateQ' : 'paymentTypes.activateQ') }}
      Form={PaymentTypeFormDialog}
    />
  );
}
