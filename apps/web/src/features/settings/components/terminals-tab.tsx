import { useMemo, useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { Controller } from 'react-hook-form';
import { useQuery } from '@tanstack/react-query';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { useSession } from '@/lib/session';
import { apiGet } from '@/features/list-table/api/http';
import { FormSelect } from '@/features/list-table/components/form-select';
import { MultiSelect } from '@/features/list-table/components/multi-select';
import { toOptions, useOptionList } from '@/features/list-table/hooks/use-options';
import { iri, idOf } from '@/features/list-table/lib/refs';
import { CrudTab, type EntityFormProps } from './crud-tab.tsx';
import { CrudFormDialog, useCrudForm } from './crud-form.tsx';
import { terminalSchema, type TerminalForm } from '../lib/schemas.ts';
import { useStoreOptions } from '../lib/store-options.ts';
import type { ProductRef, TerminalRow } from '../lib/types.ts';

const FIELDS = ['code', 'store', 'description', 'products', 'excludeProducts', 'categories'];
/** Spec 9: terminal rows show 7 product names. */
export const TERMINAL_PRODUCTS_SHOWN = 7;

function useProductKeywords() {
  return useQuery({
    queryKey: ['options', '/admin/product/keywords'],
    queryFn: async () => (await apiGet<{ list?: ProductRef[] }>('/admin/product/keywords'))?.list ?? [],
    staleTime: 30_000,
  });
}

function TerminalFormDialog({ open, onClose, entity }: EntityFormProps<TerminalRow>) {
  const { t } = useTranslation('backoffice');
  const { store } = useSession();
  const stores = useStoreOptions();
  const products = toOptions(useProductKeywords().data, (p) => p.name);
  const categories = toOptions(useOptionList<{ id: number; name: string }>('/categories').data, (c) => c.name);
  const ids = (list?: Array<{ id?: number; '@id'?: string }> | null) => (list ?? []).map((x) => String(idOf(x)));
  const { register, handleSubmit, formState, control, submit, saving } = useCrudForm<TerminalForm>({
    schema: terminalSchema, path: '/admin/terminal/create', updatePath: (id) => `/admin/terminal/${id}`, invalidate: [['/terminals']],
    fields: FIELDS, entity, onClose,
    defaults: {
      code: entity?.code ?? '',
      description: entity?.description ?? '',
      store: entity?.store ? String(entity.store.id) : store ? String(store.id) : '',
      products: ids(entity?.products),
      excludeProducts: ids(entity?.excludeProducts),
      categories: ids(entity?.categories),
    },
  });
  const e = formState.errors;
  return (
    <CrudFormDialog
      texts="terminals"
      editing={!!entity}
      open={open}
      onClose={onClose}
      size="lg"
      saving={saving}
      onSubmit={handleSubmit((v) => {
        const body: Record<string, unknown> = {
          code: v.code.trim(),
          description: v.description?.trim() || null,
          store: Number(v.store),
          products: v.products.map((id) => iri('products', id)),
          excludeProducts: v.excludeProducts.map((id) => iri('products', id)),
          categories: v.categories.map(Number),
        };
        // PUT merges: a list the terminal row did not carry and the user left empty is not sent,
        // so an update cannot wipe what this form was never shown.
        if (entity) {
          if (entity.excludeProducts === undefined && v.excludeProducts.length === 0) delete body.excludeProducts;
          if (entity.categories === undefined && v.categories.length === 0) delete body.categories;
        }
        return submit(body);
      })}
    >
      <Input label={t('terminals.code')} required autoFocus error={e.code?.message} {...register('code')} />
      <Input label={t('terminals.description')} error={e.description?.message} {...register('description')} />
      <FormSelect control={control} name="store" label={t('common.store')} required placeholder={t('common.choose')} options={stores} />
      <Controller
        control={control}
        name="categories"
        render={({ field }) => <MultiSelect label={t('terminals.categories')} options={categories} value={field.value} onChange={field.onChange} />}
      />
      <Controller
        control={control}
        name="products"
        render={({ field }) => <MultiSelect label={t('terminals.products')} options={products} value={field.value} onChange={field.onChange} />}
      />
      <Controller
        control={control}
        name="excludeProducts"
        render={({ field }) => <MultiSelect label={t('terminals.excludeProducts')} options={products} value={field.value} onChange={field.onChange} />}
      />
    </CrudFormDialog>
  );
}

/** '+N more' opens every product of the terminal in a filterable list. */
function MoreProducts({ terminal }: { terminal: TerminalRow }) {
  const { t } = useTranslation('backoffice');
  const [open, setOpen] = useState(false);
  const [q, setQ] = useState('');
  const rest = terminal.products.length - TERMINAL_PRODUCTS_SHOWN;
  if (rest <= 0) return null;
  const shown = terminal.products.filter((p) => p.name.toLowerCase().includes(q.trim().toLowerCase()));
  return (
    <>
      <Button size="sm" variant="link" onClick={() => setOpen(true)}>
        {t('terminals.more', { count: rest })}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} title={t('terminals.productsOf', { code: terminal.code })}>
        <Input type="search" label={t('common.filter')} value={q} onChange={(e) => setQ(e.target.value)} autoFocus />
        <ul className="plain-list">
          {shown.map((p) => (
            <li key={p.id}>{p.name}</li>
          ))}
        </ul>
      </Dialog>
    </>
  );
}

export function TerminalsTab() {
  const { t } = useTranslation('backoffice');
  const columns = useMemo<ColumnDef<TerminalRow, any>[]>(
    () => [
      { id: 'code', accessorKey: 'code', header: t('terminals.code') },
      {
        id: 'products',
        header: t('terminals.products'),
        enableSorting: false,
        enableColumnFilter: false,
        cell: ({ row }) => {
          const list = row.original.products ?? [];
          return (
            <span>
              {list.slice(0, TERMINAL_PRODUCTS_SHOWN).map((p) => p.name).join(', ')} <MoreProducts terminal={row.original} />
            </span>
          );
        },
      },
      { id: 'store.name', accessorFn: (r) => r.store?.name ?? '', header: t('common.store') },
    ],
    [t],
  );
  return (
    <CrudTab<TerminalRow>
      url="/terminals"
      columns={columns}
      addLabel={t('terminals.add')}
      rowLabel={(r) => r.code}
      toggle={{ question: (r) => t(r.isActive ? 'terminals.deactivateQ' : 'terminals.activateQ') }}
      Form={TerminalFormDialog}
    />
  );
}
