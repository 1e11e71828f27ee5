import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Controller, useForm, type Control, type DefaultValues, type FieldValues, type Path, type Resolver, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { DialogSize } from '@/components/ui/dialog';
import { FormDialog, type FormDialogProps } from '@/features/list-table/components/form-dialog';
import { MultiSelect } from '@/features/list-table/components/multi-select';
import { useFormSubmit } from '../lib/use-form-submit.ts';
import { storeIds, useStoreOptions } from '../lib/store-options.ts';
import type { StoreRef } from '../lib/types.ts';

/*
 * The form half of the settings kit (issue 23; the list half is crud-tab.tsx): every settings tab's
 * create/update dialog is a zod schema, default values, a save path and its fields, so what each
 * tab repeated (useForm + zodResolver + useFormSubmit + the dialog's titles + the stores picker)
 * lives here once.
 */

export interface CrudFormOptions<F extends FieldValues> {
  /** The form's zod schema. */
  schema: Parameters<typeof zodResolver>[0];
  defaults: DefaultValues<F>;
  /** POST target on create (and the list refreshed after a save), e.g. '/taxes'. */
  path: string;
  /** PUT target on update; default `${path}/${id}`. */
  updatePath?: (id: number | string) => string;
  /** Lists reloaded after a save; default the path's list and its option lists. */
  invalidate?: ReadonlyArray<readonly unknown[]>;
  /** The fields a 422 may name (marked under the field; the rest go to a toast). */
  fields: readonly string[];
  /** The row being edited; null creates. */
  entity: { id: number } | null;
  /** Called after a save (closes the dialog). */
  onClose: () => void;
}

/** A settings form: react-hook-form on the schema, and `submit(body)` that POSTs or PUTs, marks a 422's fields and closes when saved. */
export function useCrudForm<F extends FieldValues>(o: CrudFormOptions<F>): UseFormReturn<F> & { submit: (body: unknown) => Promise<void>; saving: boolean } {
  const form = useForm<F>({ resolver: zodResolver(o.schema) as unknown as Resolver<F>, defaultValues: o.defaults });
  const { submit, saving } = useFormSubmit<F>({
    createPath: o.path,
    updatePath: o.updatePath,
    invalidate: o.invalidate ?? [[o.path], ['options', o.path]],
    id: o.entity?.id,
    onDone: o.onClose,
    setError: form.setError,
    fields: o.fields,
  });
  return { ...form, submit, saving };
}

export interface CrudFormDialogProps {
  /** The tab's text namespace inside 'backoffice' (its `create` and `update` titles), e.g. 'taxes'. */
  texts: string;
  editing: boolean;
  open: boolean;
  onClose: () => void;
  saving: boolean;
  onSubmit: FormDialogProps['onSubmit'];
  size?: DialogSize;
  children: ReactNode;
}

/** The dialog of a settings form: "Create …" or "Update …", Cancel and Save. */
export function CrudFormDialog({ texts, editing, open, onClose, saving, onSubmit, size, children }: CrudFormDialogProps) {
  const { t } = useTranslation('backoffice');
  return (
    <FormDialog open={open} onClose={onClose} size={size} title={t(`${texts}.${editing ? 'update' : 'create'}`)} saving={saving} onSubmit={onSubmit}>
      {children}
    </FormDialog>
  );
}

/** The stores an entity is linked to (taxes, payment types, discounts, brands, categories …). */
export function StoresField<F extends FieldValues>({ control, name }: { control: Control<F>; name: Path<F> }) {
  const { t } = useTranslation('backoffice');
  const stores = useStoreOptions();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <MultiSelect label={t('common.stores')} required options={stores} value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
      )}
    />
  );
}

/** A form's stores at the start: the entity's, or for a new one the store the user works in. */
export const initialStores = (entity: { stores?: readonly StoreRef[] | null } | null, store: { id: number } | null): string[] =>
  entity ? storeIds(entity.stores) : store ? [String(store.id)] : [];
