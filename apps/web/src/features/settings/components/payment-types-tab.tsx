import { useMemo } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { Input } from '@/components/ui/input';
import { useSession } from '@/lib/session';
import { Select } from '@/components/ui/select';
import { CrudTab, nameColumn, storesColumn, type EntityFormProps } from './crud-tab.tsx';
import { CrudFormDialog, initialStores, StoresField, useCrudForm } from './crud-form.tsx';
import { PAYMENT_KINDS, paymentTypeSchema, type PaymentTypeForm } from '../lib/schemas.ts';
import { storeIri } from '../lib/store-options.ts';
import type { PaymentTypeRow } from '../lib/types.ts';

const FIELDS = ['name', 'type', 'canHaveChangeDue', 'stores'];

function PaymentTypeFormDialog({ open, onClose, entity }: EntityFormProps<PaymentTypeRow>) {
  const { t } = useTranslation('backoffice');
  const { store } = useSession();
  const { register, handleSubmit, formState: { errors: e }, control, submit, saving } = useCrudForm<PaymentTypeForm>({
    schema: paymentTypeSchema, path: '/payments', fields: FIELDS, entity, onClose,
    defaults: {
      name: entity?.name ?? '',
      type: (PAYMENT_KINDS as readonly string[]).includes(entity?.type ?? '') ? (entity!.type as PaymentTypeForm['type']) : 'cash',
      canHaveChangeDue: !!entity?.canHaveChangeDue,
      stores: initialStores(entity, store),
    },
  });
  return (
    <CrudFormDialog
      texts="paymentTypes"
      editing={!!entity}
      open={open}
      onClose={onClose}
      saving={saving}
      onSubmit={handleSubmit((v) => submit({ name: v.name.trim(), type: v.type, canHaveChangeDue: v.canHaveChangeDue, stores: v.stores.map(storeIri) }))}
    >
      <Input label={t('common.name')} required autoFocus error={e.name?.message} {...register('name')} />
      <Select
        label={t('paymentTypes.type')}
        required
        options={PAYMENT_KINDS.map((k) => ({ value: k, label: t(`paymentTypes.kinds.${k}`) }))}
        error={e.type?.message}
        {...register('type')}
      />
      <label className="checkbox">
        <input type="checkbox" {...register('canHaveChangeDue')} /> {t('paymentTypes.canHaveChangeDue')}
      </label>
      <StoresField control={control} name="stores" />
    </CrudFormDialog>
  );
}

export function PaymentTypesTab() {
  const { t } = useTranslation('backoffice');
  const columns = useMemo<ColumnDef<PaymentTypeRow, any>[]>(
    () => [
      nameColumn(t('common.name')),
      { id: 'type', accessorKey: 'type', header: t('paymentTypes.type'), cell: ({ getValue }) => t(`paymentTypes.kinds.${getValue()}`, { defaultValue: String(getValue() ?? '') }) },
      {
        id: 'canHaveChangeDue',
        accessorKey: 'canHaveChangeDue',
        header: t('paymentTypes.canHaveChangeDue'),
        enableColumnFilter: false,
        cell: ({ getValue }) => (getValue() ? t('common.yes') : t('common.no')),
      },
      storesColumn(t('common.stores')),
    ],
    [t],
  );
  return (
    <CrudTab<PaymentTypeRow>
      url="/payments"
      perStore
      columns={columns}
      addLabel={t('paymentTypes.add')}
      rowLabel={(r) => r.name}
      toggle={{ question: (r) => t(r.isActive ? 'paymentTypes.deactivateQ' : 'paymentTypes.activateQ') }}
      Form={PaymentTypeFormDialog}
    />
  );
}
