import { useMemo } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Input } from '@/components/ui/input';
import { useSession } from '@/lib/session';
import { FormDialog } from '@/features/list-table/components/form-dialog';
import { FormSelect } from '@/features/list-table/components/form-select';
import { CrudTab, type EntityFormProps } from './crud-tab.tsx';
import { departmentSchema, type DepartmentForm } from '../lib/schemas.ts';
import { useFormSubmit } from '../lib/use-form-submit.ts';
import { storeIri, useStoreOptions } from '../lib/store-options.ts';
import type { DepartmentRow } from '../lib/types.ts';

const FIELDS = ['name', 'description', 'store'];

function DepartmentFormDialog({ open, onClose, entity }: EntityFormProps<DepartmentRow>) {
  const { t } = useTranslation('backoffice');
  const { store } = useSession();
  const stores = useStoreOptions();
  const { register, handleSubmit, setError, formState, control } = useForm<DepartmentForm>({
    resolver: zodResolver(departmentSchema),
    defaultValues: {
      name: entity?.name ?? '',
      description: entity?.description ?? '',
      store: entity?.store ? String(entity.store.id) : store ? String(store.id) : '',
    },
  });
  const { submit, saving } = useFormSubmit<DepartmentForm>({
    createPath: '/departments',
    invalidate: [['/departments'], ['options', '/departments']],
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
      title={entity ? t('departments.update') : t('departments.create')}
      saving={saving}
      onSubmit={handleSubmit((v) => submit({ name: v.name.trim(), description: v.description.trim(), store: storeIri(v.store), isActive: true }))}
    >
      <Input label={t('common.name')} required autoFocus error={e.name?.message} {...register('name')} />
      <Input label={t('departments.description')} required error={e.description?.message} {...register('description')} />
      <FormSelect control={control} name="store" label={t('common.store')} required placeholder={t('common.choose')} options={stores} />
    </FormDialog>
  );
}

export function DepartmentsTab() {
  const { t } = useTranslation('backoffice');
  const { store } = useSession();
  const columns = useMemo<ColumnDef<DepartmentRow, any>[]>(
    () => [
      { id: 'name', accessorKey: 'name', header: t('common.name') },
      { id: 'description', accessorKey: 'description', header: t('departments.description') },
      { id: 'store.name', accessorFn: (r) => r.store?.name ?? '', header: t('common.store') },
    ],
    [t],
  );
  return (
    <CrudTab<DepartmentRow>
      url="/departments"
      params={{ store: store?.id }}
      columns={columns}
      addLabel={t('departments.add')}
      rowLabel={(r) => r.name}
      remove={{ question: () => t('departments.deleteQ') }}
      Form={DepartmentFormDialog}
    />
  );
}
