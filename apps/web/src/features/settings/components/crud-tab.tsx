import { useMemo, useState, type ComponentType } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { confirm } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/toast';
import { ListTable } from '@/features/list-table/components/list-table';
import { ActiveSwitch } from '@/features/list-table/components/active-switch';
import { apiDelete } from '@/features/list-table/api/http';
import type { ParamValue } from '@/features/list-table/lib/list-query';
import { useSession } from '@/lib/session';
import { storeNames } from '../lib/store-options.ts';
import type { StoreRef } from '../lib/types.ts';

export interface EntityFormProps<T> {
  open: boolean;
  onClose: () => void;
  /** null: create. */
  entity: T | null;
}

export interface CrudTabProps<T extends { id: number; isActive?: boolean }> {
  /** API collection path, e.g. '/stores'; also the cache key. */
  url: string;
  params?: Readonly<Record<string, ParamValue>>;
  /** The list of the store the user works in (?store=): taxes, payment types, discounts, departments … */
  perStore?: boolean;
  columns: ColumnDef<T, any>[];
  /** Text of the add button ('Store'). */
  addLabel: string;
  /** Label of the row being acted on, for accessible names. */
  rowLabel: (row: T) => string;
  toggle?: { question: (row: T) => string };
  remove?: { question: (row: T) => string };
  Form: ComponentType<EntityFormProps<T>>;
  loaderRows?: number;
  loaderLines?: number;
  /** A row that cannot be changed (a built-in role): View instead of Edit, no toggle or delete. */
  readOnly?: (row: T) => boolean;
  /** Where the answer keeps its rows when it is not a hydra collection (e.g. 'list'). */
  itemsKey?: string;
  totalKey?: string;
  /** The column search box (off for short lists the API does not search). */
  searchable?: boolean;
}

/** The Name column of a settings list (header "Name", sorted and searched by the server). */
export const nameColumn = <T extends { name?: string | null }>(header: string): ColumnDef<T, any> => ({ id: 'name', accessorKey: 'name', header });

/** The Stores column of an entity linked to stores (not sorted or searched: a list of names). */
export const storesColumn = <T extends { stores?: readonly StoreRef[] | null }>(header: string): ColumnDef<T, any> => ({
  id: 'stores', accessorFn: (r) => storeNames(r.stores), header, enableSorting: false, enableColumnFilter: false,
});

/**
 * The list half of the settings kit (spec 2.5, issue 23; the form half is crud-form.tsx): the paged
 * table, an add button, edit plus toggle or delete per row, the create/update dialog.
 */
export function CrudTab<T extends { id: number; isActive?: boolean }>({
  url,
  params: ownParams,
  perStore,
  columns,
  addLabel,
  rowLabel,
  toggle,
  remove,
  Form,
  loaderRows = 3,
  loaderLines = 1,
  readOnly,
  itemsKey,
  totalKey,
  searchable,
}: CrudTabProps<T>) {
  const { t } = useTranslation('backoffice');
  const client = useQueryClient();
  const { store } = useSession();
  const params = perStore ? { ...ownParams, store: store?.id } : ownParams;
  const [editing, setEditing] = useState<T | null>(null);
  const [open, setOpen] = useState(false);
  const queryKey = useMemo(() => [url] as const, [url]);

  const allColumns = useMemo<ColumnDef<T, any>[]>(
    () => [
      ...columns,
      {
        id: 'actions',
        header: t('common.actions'),
        enableSorting: false,
        enableColumnFilter: false,
        enableHiding: false,
        cell: ({ row }) => {
          const r = row.original;
          const fixed = readOnly?.(r) ?? false;
          return (
            <div className="row-actions">
              <Button
                size="sm"
                variant="secondary"
                aria-label={t(fixed ? 'common.viewNamed' : 'common.editNamed', { name: rowLabel(r) })}
                onClick={() => {
                  setEditing(r);
                  setOpen(true);
                }}
              >
                {fixed ? t('common.view') : <><span aria-hidden="true">✎</span> {t('common.edit')}</>}
              </Button>
              {toggle && !fixed && (
                <ActiveSwitch
                  path={`${url}/${r.id}`}
                  active={!!r.isActive}
                  question={toggle.question(r)}
                  label={t('common.activeNamed', { name: rowLabel(r) })}
                  invalidate={queryKey}
                />
              )}
              {remove && !fixed && (
                <Button
                  size="sm"
                  variant="danger"
                  aria-label={t('common.deleteNamed', { name: rowLabel(r) })}
                  onClick={async () => {
                    if (!(await confirm(remove.question(r), { danger: true }))) return;
                    try {
                      await apiDelete(`${url}/${r.id}`);
                      await client.invalidateQueries({ queryKey });
                    } catch (error) {
                      toast.error(error instanceof Error ? error.message : String(error));
                    }
                  }}
                >
                  {t('common.delete')}
                </Button>
              )}
            </div>
          );
        },
      },
    ],
     
    [columns, t, url, readOnly],
  );

  return (
    <>
      <ListTable<T>
        url={url}
        queryKey={queryKey}
        params={params}
        columns={allColumns}
        loaderRows={loaderRows}
        loaderLines={loaderLines}
        itemsKey={itemsKey}
        totalKey={totalKey}
        searchable={searchable}
        toolbar={
          <Button
            onClick={() => {
              setEditing(null);
              setOpen(true);
            }}
          >
            <span aria-hidden="true">+</span> {addLabel}
          </Button>
        }
      />
      {open && (
        <Form
          key={editing?.id ?? 'new'}
          open={open}
          entity={editing}
          onClose={() => {
            setOpen(false);
            setEditing(null);
          }}
        />
      )}
    </>
  );
}
