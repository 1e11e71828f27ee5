import { useMemo } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Input } from '@/components/ui/input';
import { NumberInput } from '@/components/ui/number-input';
import { useSession } from '@/lib/session';
import { FormDialog } from '@/features/list-table/components/form-dialog';
import { MultiSelect } from '@/features/list-table/components/multi-select';
import { CrudTab, type EntityFormProps } from './crud-tab.tsx';
import { taxSchema, type TaxForm } from '../lib/schemas.ts';
import { useFormSubmit } from '../lib/use-form-submit.ts';
import { storeIds, storeIri, storeNames, useStoreOptions } from '../lib/store-options.ts';
import type { TaxRow } from '../lib/types.ts';

const FIELDS = ['name', 'rate', 'stores'];

function TaxFormDialog({ open, onClose, entity }: EntityFormProps<TaxRow>) {
  const { t } = useTranslation('backoffice');
  const { store } = useSession();
  const stores = useStoreOptions();
  const { register, handleSubmit, setError, formState, control } = useForm<TaxForm>({
    resolver: zodResolver(taxSchema),
    defaultValues: {
      name: entity?.name ?? '',
      rate: entity ? String(entity.rate ?? '') : '',
      stores: entity ? storeIds(entity.stores) : store ? [String(store.id)] : [],
    },
  });
  const { submit, saving } = useFormSubmit<TaxForm>({
    createPath: '/taxes',
    invalidate: [['/taxes'], ['options', '/taxes']],
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
      title={entity ? t('taxes.update') : t('taxes.create')}
      saving={saving}
      onSubmit={handleSubmit((v) => submit({ name: v.name.trim(), rate: v.rate.trim(), stores: v.stores.map(storeIri) }))}
    >
      <Input label={t('common.name')} required autoFocus error={e.name?.message} {...register('name')} />
      <NumberInput label={t('taxes.rate')} required error={e.rate?.message} {...register('rate')} />
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

export function TaxesTab() {
  const { t } = useTranslation('backoffice');
  const { store } = useSession();
  const columns = useMemo<ColumnDef<TaxRow, any>[]>(
    () => [
      { id: 'name', accessorKey: 'name', header: t('common.name') },
      { id: 'rate', accessorKey: 'rate', header: t('taxes.rate'), cell: ({ getValue }) => `${getValue() ?? ''}%` },
      { id: 'stores', accessorFn: (r) => storeNames(r.stores), header: t('common.stores'), enableSorting: false, enableColumnFilter: false },
    ],
    [t],
  );
  return (
    <CrudTab<TaxRow>
      url="/taxes"
      params={{ store: store?.id }}
      columns={columns}
      addLabel={t('taxes.add')}
      rowLabel={(r) => r.name}
      toggle={{ question: (r) => t(r.isActive ? 'taxes.deactivateQ' : 'taxes.activateQ') }}
      Form={TaxFormDialog}
    />
  );
}
