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
import { Select } from '@/components/ui/select';
import { CrudTab, type EntityFormProps } from './crud-tab.tsx';
import { discountPayload, discountSchema, type DiscountForm } from '../lib/schemas.ts';
import { useFormSubmit } from '../lib/use-form-submit.ts';
import { storeIds, storeIri, storeNames, useStoreOptions } from '../lib/store-options.ts';
import type { DiscountRow } from '../lib/types.ts';

const FIELDS = ['name', 'rate', 'rateType', 'scope', 'stores'];

function DiscountFormDialog({ open, onClose, entity }: EntityFormProps<DiscountRow>) {
  const { t } = useTranslation('backoffice');
  const { store } = useSession();
  const stores = useStoreOptions();
  const { register, handleSubmit, setError, formState, control } = useForm<DiscountForm>({
    resolver: zodResolver(discountSchema),
    defaultValues: {
      name: entity?.name ?? '',
      rate: entity?.rate === null || entity?.rate === undefined ? '' : String(entity.rate),
      rateType: entity?.rateType === 'fixed' ? 'fixed' : 'percent',
      scope: entity?.scope === 'open' ? 'open' : 'exact',
      stores: entity ? storeIds(entity.stores) : store ? [String(store.id)] : [],
    },
  });
  const { submit, saving } = useFormSubmit<DiscountForm>({
    createPath: '/discounts',
    invalidate: [['/discounts'], ['options', '/discounts']],
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
      title={entity ? t('discounts.update') : t('discounts.create')}
      saving={saving}
      onSubmit={handleSubmit((v) => submit(discountPayload(v, storeIri)))}
    >
      <Input label={t('common.name')} required autoFocus error={e.name?.message} {...register('name')} />
      <NumberInput label={t('discounts.rate')} error={e.rate?.message} {...register('rate')} />
      <Select
        label={t('discounts.rateType')}
        required
        options={[
          { value: 'percent', label: t('discounts.rateTypes.percent') },
          { value: 'fixed', label: t('discounts.rateTypes.fixed') },
        ]}
        error={e.rateType?.message}
        {...register('rateType')}
      />
      <Select
        label={t('discounts.scope')}
        required
        options={[
          { value: 'exact', label: t('discounts.scopes.exact') },
          { value: 'open', label: t('discounts.scopes.open') },
        ]}
        error={e.scope?.message}
        {...register('scope')}
      />
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

export function DiscountsTab() {
  const { t } = useTranslation('backoffice');
  const { store } = useSession();
  const columns = useMemo<ColumnDef<DiscountRow, any>[]>(
    () => [
      { id: 'name', accessorKey: 'name', header: t('common.name') },
      { id: 'rate', accessorKey: 'rate', header: t('discounts.rate') },
      { id: 'rateType', accessorKey: 'rateType', header: t('discounts.rateType'), cell: ({ getValue }) => (getValue() ? t(`discounts.rateTypes.${getValue()}`, { defaultValue: String(getValue()) }) : '') },
      { id: 'scope', accessorKey: 'scope', header: t('discounts.scope'), cell: ({ getValue }) => (getValue() ? t(`discounts.scopes.${getValue()}`, { defaultValue: String(getValue()) }) : '') },
      { id: 'stores', accessorFn: (r) => storeNames(r.stores), header: t('common.stores'), enableSorting: false, enableColumnFilter: false },
    ],
    [t],
  );
  return (
    <CrudTab<DiscountRow>
      url="/discounts"
      params={{ store: store?.id }}
      columns={columns}
      addLabel={t('discounts.add')}
      rowLabel={(r) => r.name}
      toggle={{ question: (r) => t(r.isActive ? 'discounts.deactivateQ' : 'discounts.activateQ') }}
      Form={DiscountFormDialog}
    />
  );
}
