import { useMemo } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Input } from '@/components/ui/input';
import { FormDialog } from '@/features/list-table/components/form-dialog';
import { CrudTab, type EntityFormProps } from './crud-tab.tsx';
import { storeSchema, type StoreForm } from '../lib/schemas.ts';
import { useFormSubmit } from '../lib/use-form-submit.ts';
import type { StoreRow } from '../lib/types.ts';

const FIELDS = ['name', 'location'];

function StoreFormDialog({ open, onClose, entity }: EntityFormProps<StoreRow>) {
  const { t } = useTranslation('backoffice');
  const { register, handleSubmit, setError, formState } = useForm<StoreForm>({
    resolver: zodResolver(storeSchema),
    defaultValues: { name: entity?.name ?? '', location: entity?.location ?? '' },
  });
  const { submit, saving } = useFormSubmit<StoreForm>({
    createPath: '/stores',
    invalidate: [['/stores'], ['options', '/stores']],
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
      title={entity ? t('stores.update') : t('stores.create')}
      saving={saving}
      onSubmit={handleSubmit((v) => submit({ name: v.name.trim(), location: v.location?.trim() ?? '' }))}
    >
      <Input label={t('stores.name')} required autoFocus error={e.name?.message} {...register('name')} />
      <Input label={t('stores.location')} error={e.location?.message} {...register('location')} />
    </FormDialog>
  );
}

export function StoresTab() {
  const { t } = useTranslation('backoffice');
  const columns = useMemo<ColumnDef<StoreRow, any>[]>(
    () => [
      { id: 'name', accessorKey: 'name', header: t('stores.name') },
      { id: 'location', accessorKey: 'location', header: t('stores.location') },
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
