import { useMemo } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { useWatch } from 'react-hook-form';
import { Input } from '@/components/ui/input';
import { Checkbox } from '@/components/ui/checkbox';
import { CrudTab, type EntityFormProps } from './crud-tab.tsx';
import { CrudFormDialog, useCrudForm } from './crud-form.tsx';
import { StoreMoneyFields } from './store-money-fields.tsx';
import { storeSchema, type StoreForm } from '../lib/schemas.ts';
import type { StoreRow } from '../lib/types.ts';

const FIELDS = ['name', 'location', 'currency', 'locale', 'timeZone', 'cashRoundingStep', 'pricesIncludeTax', 'legacyTaxBase', 'allowNegativeStock'];

function StoreFormDialog({ open, onClose, entity }: EntityFormProps<StoreRow>) {
  const { t } = useTranslation('backoffice');
  const { register, handleSubmit, formState, control, submit, saving } = useCrudForm<StoreForm>({
    schema: storeSchema, path: '/stores', fields: FIELDS, entity, onClose,
    defaults: {
      name: entity?.name ?? '', location: entity?.location ?? '',
      // A new store starts as every store did before issue 19: USD, en-US, UTC, no rounding, tax-exclusive.
      currency: entity?.currency ?? 'USD', locale: entity?.locale ?? 'en-US', timeZone: entity?.timeZone ?? 'UTC',
      cashRoundingStep: String(entity?.cashRoundingStep ?? 0), pricesIncludeTax: entity?.pricesIncludeTax ?? false, legacyTaxBase: entity?.legacyTaxBase ?? false,
      allowNegativeStock: entity?.allowNegativeStock ?? false,
    },
  });
  const [currency, timeZone] = useWatch({ control, name: ['currency', 'timeZone'] });
  const e = formState.errors;
  return (
    <CrudFormDialog
      texts="stores"
      editing={!!entity}
      open={open}
      onClose={onClose}
      saving={saving}
      onSubmit={handleSubmit((v) =>
        submit({
          name: v.name.trim(), location: v.location?.trim() ?? '',
          currency: v.currency, locale: v.locale.trim(), timeZone: v.timeZone,
          cashRoundingStep: Number(v.cashRoundingStep), pricesIncludeTax: v.pricesIncludeTax, legacyTaxBase: v.legacyTaxBase, allowNegativeStock: v.allowNegativeStock,
        }))}
    >
      <Input label={t('stores.name')} required autoFocus error={e.name?.message} {...register('name')} />
      <Input label={t('stores.location')} error={e.location?.message} {...register('location')} />
      <StoreMoneyFields register={register} errors={e} currency={currency} values={{ currency, timeZone }} />
      <Checkbox label={t('stores.allowNegativeStock')} {...register('allowNegativeStock')} />
    </CrudFormDialog>
  );
}

export function StoresTab() {
  const { t } = useTranslation('backoffice');
  const columns = useMemo<ColumnDef<StoreRow, any>[]>(
    () => [
      { id: 'name', accessorKey: 'name', header: t('stores.name') },
      { id: 'location', accessorKey: 'location', header: t('stores.location') },
      { id: 'currency', accessorKey: 'currency', header: t('storeMoney.currency'), enableSorting: false, enableColumnFilter: false },
      { id: 'timeZone', accessorKey: 'timeZone', header: t('storeMoney.timeZone'), enableSorting: false, enableColumnFilter: false },
    ],
    [t],
  );
  return (
    <CrudTab<StoreRow>
      url="/stores"
      columns={columns}
      addLabel={t('stores.add')}
      rowLabel={(r) => r.name}
      toggle={{ question: (r) => t(r.isActive ? 'stores.deactivateQ' : 'stores.activateQ') }}
      Form={StoreFormDialog}
    />
  );
}
