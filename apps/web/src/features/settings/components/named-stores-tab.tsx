import { useMemo } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { Input } from '@/components/ui/input';
import { useSession } from '@/lib/session';
import { CrudTab, nameColumn, storesColumn, type EntityFormProps } from './crud-tab.tsx';
import { CrudFormDialog, initialStores, StoresField, useCrudForm } from './crud-form.tsx';
import { brandSchema, type BrandForm } from '../lib/schemas.ts';
import { storeIri } from '../lib/store-options.ts';
import type { BrandRow } from '../lib/types.ts';

type Kind = 'brands' | 'categories';
const FIELDS = ['name', 'stores'];

function makeForm(kind: Kind) {
  return function NamedFormDialog({ open, onClose, entity }: EntityFormProps<BrandRow>) {
    const { t } = useTranslation('backoffice');
    const { store } = useSession();
    const { register, handleSubmit, formState, control, submit, saving } = useCrudForm<BrandForm>({
      schema: brandSchema, path: `/${kind}`, fields: FIELDS, entity, onClose,
      defaults: { name: entity?.name ?? '', stores: initialStores(entity, store) },
    });
    return (
      <CrudFormDialog texts={kind} editing={!!entity} open={open} onClose={onClose} saving={saving}
        onSubmit={handleSubmit((v) =>
          submit({
            name: v.name.trim(),
            stores: v.stores.map(storeIri),
            isActive: entity ? entity.isActive : true,
            ...(kind === 'categories' ? { type: 'product' } : {}),
          }),
        )}>
        <Input label={t('common.name')} required autoFocus error={formState.errors.name?.message} {...register('name')} />
        <StoresField control={control} name="stores" />
      </CrudFormDialog>
    );
  };
}

const BrandFormDialog = makeForm('brands');
const CategoryFormDialog = makeForm('categories');

function NamedStoresTab({ kind }: { kind: Kind }) {
  const { t } = useTranslation('backoffice');
  const columns = useMemo<ColumnDef<BrandRow, any>[]>(() => [nameColumn(t('common.name')), storesColumn(t('common.stores'))], [t]);
  return (
    <CrudTab<BrandRow>
      url={`/${kind}`}
      perStore
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
