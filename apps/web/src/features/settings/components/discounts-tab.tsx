import { useMemo } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { Input } from '@/components/ui/input';
import { NumberInput } from '@/components/ui/number-input';
import { useSession } from '@/lib/session';
import { Select } from '@/components/ui/select';
import { CrudTab, nameColumn, storesColumn, type EntityFormProps } from './crud-tab.tsx';
import { CrudFormDialog, initialStores, StoresField, useCrudForm } from './crud-form.tsx';
import { discountPayload, discountSchema, type DiscountForm } from '../lib/schemas.ts';
import { storeIri } from '../lib/store-options.ts';
import type { DiscountRow } from '../lib/types.ts';

const FIELDS = ['name', 'rate', 'rateType', 'scope', 'stores'];

function DiscountFormDialog({ open, onClose, entity }: EntityFormProps<DiscountRow>) {
  const { t } = useTranslation('backoffice');
  const { store } = useSession();
  const { register, handleSubmit, formState: { errors: e }, control, submit, saving } = useCrudForm<DiscountForm>({
    schema: discountSchema, path: '/discounts', fields: FIELDS, entity, onClose,
    defaults: {
      name: entity?.name ?? '',
      rate: entity?.rate === null || entity?.rate === undefined ? '' : String(entity.rate),
      rateType: entity?.rateType === 'fixed' ? 'fixed' : 'percent',
      scope: entity?.scope === 'open' ? 'open' : 'exact',
      stores: initialStores(entity, store),
    },
  });
  return (
    <CrudFormDialog
      texts="discounts"
      editing={!!entity}
      open={open}
      onClose={onClose}
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
      <StoresField control={control} name="stores" />
    </CrudFormDialog>
  );
}

export function DiscountsTab() {
  const { t } = useTranslation('backoffice');
  const columns = useMemo<ColumnDef<DiscountRow, any>[]>(
    () => [
      nameColumn(t('common.name')),
      { id: 'rate', accessorKey: 'rate', header: t('discounts.rate') },
      { id: 'rateType', accessorKey: 'rateType', header: t('discounts.rateType'), cell: ({ getValue }) => (getValue() ? t(`discounts.rateTypes.${getValue()}`, { defaultValue: String(getValue()) }) : '') },
      { id: 'scope', accessorKey: 'scope', header: t('discounts.scope'), cell: ({ getValue }) => (getValue() ? t(`discounts.scopes.${getValue()}`, { defaultValue: String(getValue()) }) : '') },
      storesColumn(t('common.stores')),
    ],
    [t],
  );
  return (
    <CrudTab<DiscountRow>
      url="/discounts"
      perStore
      columns={columns}
      addLabel={t('discounts.add')}
      rowLabel={(r) => r.name}
      toggle={{ question: (r) => t(r.isActive ? 'discounts.deactivateQ' : 'discounts.activateQ') }}
      Form={DiscountFormDialog}
    />
  );
}
