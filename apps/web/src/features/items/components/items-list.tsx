import { useMemo, useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { errorText } from '@/lib/form-errors';
import { apiGet } from '@/features/list-table/api/http';
import { ListTable } from '@/features/list-table/components/list-table';
import { ActiveSwitch } from '@/features/list-table/components/active-switch';
import { money } from '@/features/list-table/lib/amounts';
import { ItemFormDialog } from './item-form-dialog.tsx';
import { LabelsDialog } from './labels-dialog.tsx';
import { exportItems } from '../api/import-items.ts';
import { ImportDialog } from './import-dialog.tsx';
import type { Product } from '../lib/types.ts';

const names = (list: Array<{ name?: string }> | null | undefined) => (list ?? []).map((x) => x.name).filter(Boolean).join(', ');

/** "Update item" edits the product as GET /products/{id} returns it now (all relations and price rules), not the list row. */
function ItemFormLoader({ product, onClose }: { product: Product | null; onClose: () => void }) {
  const full = useQuery({
    queryKey: ['/products', 'item', product?.id],
    queryFn: () => apiGet<Product>(`/products/${product!.id}`),
    enabled: !!product,
    gcTime: 0,
  });
  if (product && !full.data) {
    return full.isError ? <ItemFormDialog open product={product} onClose={onClose} /> : <Spinner />;
  }
  return <ItemFormDialog open product={full.data ?? null} onClose={onClose} />;
}

export interface ItemsListProps {
  /**
   * The back office opens a product's form by URL (/admin/catalogue/new, /admin/catalogue/:id):
   * "Add" and "Edit" call this instead of opening the dialog. The till's settings leave it out.
   */
  onOpen?: (id: number | 'new') => void;
}

/** The products list of the settings modal (spec 2.5 Products list) and of the back office's catalogue page. */
export function ItemsList({ onOpen }: ItemsListProps = {}) {
  const { t, i18n } = useTranslation('backoffice');
  const [editing, setEditing] = useState<Product | null>(null);
  const [open, setOpen] = useState(false);
  /** The item whose labels are printed; 'changes': labels for price changes. */
  const [labelsFor, setLabelsFor] = useState<Product | 'changes' | null>(null);
  const [importing, setImporting] = useState(false);
  const lng = i18n.language;

  const columns = useMemo<ColumnDef<Product, any>[]>(
    () => [
      { id: 'name', accessorKey: 'name', header: t('items.name') },
      { id: 'barcode', accessorKey: 'barcode', header: t('items.barcode') },
      { id: 'basePrice', accessorKey: 'basePrice', header: t('items.salePrice'), cell: ({ getValue }) => money(getValue(), lng) },
      { id: 'cost', accessorKey: 'cost', header: t('items.purchasePrice'), cell: ({ getValue }) => money(getValue(), lng) },
      { id: 'department.name', accessorFn: (r) => r.department?.name ?? '', header: t('items.department') },
      { id: 'categories.name', accessorFn: (r) => names(r.categories), header: t('items.categories') },
      { id: 'suppliers.name', accessorFn: (r) => names(r.suppliers), header: t('items.suppliers') },
      { id: 'brands.name', accessorFn: (r) => names(r.brands), header: t('items.brands') },
      {
        id: 'variants',
        header: t('items.variants'),
        enableSorting: false,
        enableColumnFilter: false,
        cell: ({ row }) => t('items.variantCount', { count: row.original.variants?.length ?? 0 }),
      },
      {
        id: 'taxes.name',
        accessorFn: (r) => (r.taxes ?? []).map((x) => `${x.name} ${x.rate ?? ''}%`).join(', '),
        header: t('items.taxes'),
      },
      {
        id: 'stores',
        header: t('common.stores'),
        enableSorting: false,
        enableColumnFilter: false,
        accessorFn: (r) => (r.stores ?? []).map((s) => s.store?.name).filter(Boolean).join(', '),
      },
      {
        id: 'terminals',
        header: t('items.terminals'),
        enableSorting: false,
        enableColumnFilter: false,
        accessorFn: (r) => (r.terminals ?? []).map((x) => x.code ?? x.name).join(', '),
      },
      {
        id: 'actions',
        header: t('common.actions'),
        enableSorting: false,
        enableColumnFilter: false,
        enableHiding: false,
        cell: ({ row }) => {
          const p = row.original;
          return (
            <div className="row-actions">
              <ActiveSwitch
                path={`/products/${p.id}`}
                active={p.isActive}
                question={t(p.isActive ? 'items.deactivateQ' : 'items.activateQ')}
                label={t('common.activeNamed', { name: p.name })}
                invalidate={['/products']}
              />
              <Button
                size="sm"
                variant="secondary"
                aria-label={t('common.editNamed', { name: p.name })}
                onClick={() => {
                  if (onOpen) return onOpen(p.id);
                  setEditing(p);
                  setOpen(true);
                }}
              >
                <span aria-hidden="true">✎</span> {t('common.edit')}
              </Button>
              <Button size="sm" variant="secondary" aria-label={t('labels.forNamed', { name: p.name })} onClick={() => setLabelsFor(p)}>
                {t('labels.button')}
              </Button>
            </div>
          );
        },
      },
    ],
    [t, lng, onOpen],
  );

  return (
    <>
      <ListTable<Product>
        url="/products"
        queryKey={['/products']}
        columns={columns}
        loaderRows={12}
        loaderLines={10}
        toolbar={
          <>
            <Button variant="secondary" onClick={() => setImporting(true)}>
              <span aria-hidden="true">⇪</span> {t('items.upload')}
            </Button>
            <Button variant="secondary" onClick={() => exportItems().catch((error) => toast.error(errorText(error)))}>
              <span aria-hidden="true">⇩</span> {t('items.export')}
            </Button>
            <Button variant="secondary" onClick={() => setLabelsFor('changes')}>
              {t('labels.priceChangesButton')}
            </Button>
            <Button
              onClick={() => {
                if (onOpen) return onOpen('new');
                setEditing(null);
                setOpen(true);
              }}
            >
              <span aria-hidden="true">+</span> {t('items.add')}
            </Button>
          </>
        }
      />
      {importing && <ImportDialog onClose={() => setImporting(false)} />}
      {labelsFor && <LabelsDialog product={labelsFor === 'changes' ? null : labelsFor} onClose={() => setLabelsFor(null)} />}
      {open && (
        <ItemFormLoader
          key={editing?.id ?? 'new'}
          product={editing}
          onClose={() => {
            setOpen(false);
            setEditing(null);
          }}
        />
      )}
    </>
  );
}
