import { useMemo } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { Input } from '@/components/ui/input';
import { useSession } from '@/lib/session';
import { FormSelect } from '@/features/list-table/components/form-select';
import { CrudTab, nameColumn, type EntityFormProps } from './crud-tab.tsx';
import { CrudFormDialog, useCrudForm } from './crud-form.tsx';
import { departmentSchema, type DepartmentForm } from '../lib/schemas.ts';
import { storeIri, useStoreOptions } from '../lib/store-options.ts';
import type { DepartmentRow } from '../lib/types.ts';

const FIELDS = ['name', 'description', 'store'];

function DepartmentFormDialog({ open, onClose, entity }: EntityFormProps<DepartmentRow>) {
  const { t } = useTranslation('backoffice');
  const { store } = useSession();
  const stores = useStoreOptions();
  const { register, handleSubmit, formState: { errors: e }, control, submit, saving } = useCrudForm<DepartmentForm>({
    schema: departmentSchema, path: '/departments', fields: FIELDS, entity, onClose,
    defaults: {
      name: entity?.name ?? '',
      description: entity?.description ?? '',
      store: entity?.store ? String(entity.store.id) : store ? String(store.id) : '',
    },
  });
  return (
    <CrudFormDialog texts="departments" editing={!!entity} open={open} onClose={onClose} saving={saving}
      onSubmit={handleSubmit((v) => submit({ name: v.name.trim(), description: v.description.trim(), store: storeIri(v.store), isActive: true }))}>
      <Input label={t('common.name')} required autoFocus error={e.name?.message} {...register('name')} />
      <Input label={t('departments.description')} required error={e.description?.message} {...register('description')} />
      <FormSelect control={control} name="store" label={t('common.store')} required placeholder={t('common.choose')} options={stores} />
    </CrudFormDialog>
  );
}

export function DepartmentsTab() {
  const { t } = useTranslation('backoffice');
  const columns = useMemo<ColumnDef<DepartmentRow, any>[]>(
    () => [
      nameColumn(t('common.name')),
      { id: 'description', accessorKey: 'description', header: t('departments.description') },
      { id: 'store.name', accessorFn: (r) => r.store?.name ?? '', header: t('common.store') },
    ],
    [t],
  );
  return (
    <CrudTab<DepartmentRow>
      url="/departments"
      perStore
      columns={columns}
      addLabel={t('departments.add')}
      rowLabel={(r) => r.name}
      remove={{ question: () => t('departments.deleteQ') }}
      Form={DepartmentFormDialog}
    />
  );
}
