import { useMemo } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { Input } from '@/components/ui/input';
import { NumberInput } from '@/components/ui/number-input';
import { useSession } from '@/lib/session';
import { CrudTab, nameColumn, storesColumn, type EntityFormProps } from './crud-tab.tsx';
import { CrudFormDialog, initialStores, StoresField, useCrudForm } from './crud-form.tsx';
import { taxSchema, type TaxForm } from '../lib/schemas.ts';
import { storeIri } from '../lib/store-options.ts';
import type { TaxRow } from '../lib/types.ts';

const FIELDS = ['name', 'rate', 'stores'];

function TaxFormDialog({ open, onClose, entity }: EntityFormProps<TaxRow>) {
  const { t } = useTranslation('backoffice');
  const { store } = useSession();
  const { register, handleSubmit, formState: { errors: e }, control, submit, saving } = useCrudForm<TaxForm>({
    schema: taxSchema, path: '/taxes', fields: FIELDS, entity, onClose,
    defaults: { name: entity?.name ?? '', rate: entity ? String(entity.rate ?? '') : '', stores: initialStores(entity, store) },
  });
  return (
    <CrudFormDialog texts="taxes" editing={!!entity} open={open} onClose={onClose} saving={saving}
      onSubmit={handleSubmit((v) => submit({ name: v.name.trim(), rate: v.rate.trim(), stores: v.stores.map(storeIri) }))}>
      <Input label={t('common.name')} required autoFocus error={e.name?.message} {...register('name')} />
      <NumberInput label={t('taxes.rate')} required error={e.rate?.message} {...register('rate')} />
      <StoresField control={control} name="stores" />
    </CrudFormDialog>
  );
}

export function TaxesTab() {
  const { t } = useTranslation('backoffice');
  const columns = useMemo<ColumnDef<TaxRow, any>[]>(
    () => [
      nameColumn(t('common.name')),
      { id: 'rate', accessorKey: 'rate', header: t('taxes.rate'), cell: ({ getValue }) => `${getValue() ?? ''}%` },
      storesColumn(t('common.stores')),
    ],
    [t],
  );
  return (
    <CrudTab<TaxRow>
      url="/taxes"
      perStore
      columns={columns}
      addLabel={t('taxes.add')}
      rowLabel={(r) => r.name}
      toggle={{ question: (r) => t(r.isActive ? 'taxes.deactivateQ' : 'taxes.activateQ') }}
      Form={TaxFormDialog}
    />
  );
}
