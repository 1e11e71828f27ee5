import { useMemo } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Input } from '@/components/ui/input';
import { useSession } from '@/lib/session';
import { FormDialog } from '@/features/list-table/components/form-dialog';
import { MultiSelect } from '@/features/list-table/components/multi-select';
import { CrudTab, type EntityFormProps } from './crud-tab.tsx';
import { brandSchema, type BrandForm } from '../lib/schemas.ts';
import { useFormSubmit } from '../lib/use-form-submit.ts';
import { storeIds, storeIri, storeNames, useStoreOptions } from '../lib/store-options.ts';
import type { BrandRow } from '../lib/types.ts';

type Kind = 'brands' | 'categories';
const FIELDS = ['name', 'stores'];

function makeForm(kind: Kind) {
  return function NamedFormDialog({ open, onClose, entity }: EntityFormProps<BrandRow>) {
    const { t } = useTranslation('backoffice');
    const { store } = useSession();
    const stores = useStoreOptions();
    const { register, handleSubmit, setError, formState, control } = useForm<BrandForm>({
      resolver: zodResolver(brandSchema),
      defaultValues: { name: entity?.name ?? '', stores: entity ? storeIds(entity.stores) : store ? [String(store.id)] : [] },
    });
    const { submit, saving } = useFormSubmit<BrandForm>({
      createPath: `/${kind}`,
      invalidate: [[`/${kind}`], ['options', `/${kind}`]],
      id: entity?.id,
      onDone: onClose,
      setError,
      fields: FIELDS,
    });
    return (
      <FormDialog
        open={open}
        onClose={onClose}
        title={t(entity ? `${kind}.update` : `${kind}.create`)}
        saving={saving}
        onSubmit={handleSubmit((v) =>
          submit({
            name: v.name.trim(),
            stores: v.stores.map(storeIri),
            isActive: entity ? entity.isActive : true,
            ...(kind === 'categories' ? { type: 'product' } : {}),
          }),
        )}
      >
        <Input label={t('common.name')} required autoFocus error={formState.errors.name?.message} {...register('name')} />
        <Controller
          control={control}
          name="stores"
          render={({ field, fieldState }) => (
            <MultiSelect label={t('common.stores')} required options={stores} value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
          )}
        />
      </FormDialog>
    );
  };
}

const BrandFormDialog = makeForm('brands');
const CategoryFormDialog = makeForm('categories');

function NamedStoresTab({ kind }: { kind: Kind }) {
  const { t } = useTranslation('backoffice');
  const { store } = useSession();
  const columns = useMemo<ColumnDef<BrandRow, any>[]>(
    () => [
      { id: 'name', accessorKey: 'name', header: t('common.name') },
      { id: 'stores', accessorFn: (r) => storeNames(r.stores), header: t('common.stores'), enableSorting: false, enableColumnFilter: false },
    ],
    [t],
  );
  return (
    <CrudTab<BrandRow>
      url={`/${kind}`}
      params={{ store: store?.id }}
      columns={columns}
      addLabel={t(`${kind}.add`)}
      rowLabel={(r) => r.name}
      toggle={{ question: (r) => t(r.isActive ? `${kind}.deactivateQ` : `${kind}.activateQ`) }}
      Form={kind === 'brands' ? BrandFormDialog : CategoryFormDialog}
      loaderRows={3}
    />
  );
}

export const BrandsTab = () => <NamedStoresTab kind="brands" />;
export const CategoriesTab = () => <NamedStoresTab kind="categories" />;
