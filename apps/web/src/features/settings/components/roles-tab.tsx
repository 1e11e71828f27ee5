import { useMemo } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { Controller } from 'react-hook-form';
import { z } from 'zod';
import { PERMISSIONS, type Permission } from '@pos/domain/permissions';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { permissionsOf } from '@/lib/permissions';
import { useSession } from '@/lib/session';
import { CrudTab, type EntityFormProps } from './crud-tab.tsx';
import { CrudFormDialog, useCrudForm } from './crud-form.tsx';
import { req } from '../lib/schemas.ts';
import type { RoleRow } from '../lib/types.ts';

/**
 * Settings > Roles (issue 21.1): the built-in Owner, Manager and Cashier (read-only) and the roles
 * an owner defines as a set of named permissions, in groups. Only permissions the editor holds can
 * be ticked; the server refuses anything else (422 naming permissions[i]), an unknown permission,
 * and deleting a role that users still have.
 */
export const PERMISSION_GROUPS: ReadonlyArray<readonly [group: string, permissions: readonly Permission[]]> = [
  ['till', ['discount.overLimit', 'price.override', 'sale.refund', 'refund.cashForNonCash', 'sale.void', 'drawer.open']],
  ['customers', ['customer.creditTerms', 'customer.payments']],
  ['backOffice', ['cost.view', 'reports.view', 'closing.edit', 'products.manage', 'purchasing', 'stock.adjust', 'expenses']],
  ['administration', ['users', 'settings', 'audit.view']],
];

const roleSchema = z.object({ name: req(), permissions: z.array(z.enum(PERMISSIONS)) });
type RoleForm = z.input<typeof roleSchema>;
const FIELDS = ['name', 'permissions'];

/** A role's name as shown: the built-in ones in the user's language. */
export function useRoleName() {
  const { t } = useTranslation('backoffice');
  return (r: Pick<RoleRow, 'name' | 'builtin'>) => (r.builtin ? t(`roles.builtin.${r.builtin}`, { defaultValue: r.name }) : r.name);
}

function PermissionGroups({ value, onChange, disabled, error }: { value: readonly string[]; onChange?: (v: Permission[]) => void; disabled: (p: Permission) => boolean; error?: string }) {
  const { t } = useTranslation('backoffice');
  const toggle = (p: Permission, on: boolean) => {
    const next = on ? [...value, p] : value.filter((x) => x !== p);
    // Kept in the shared list's order: what is sent reads the same as the screen.
    onChange?.(PERMISSIONS.filter((x) => next.includes(x)));
  };
  return (
    <div className="form-grid">
      {PERMISSION_GROUPS.map(([group, perms]) => (
        <fieldset key={group} className="form-section">
          <legend>{t(`roles.groups.${group}`)}</legend>
          {perms.map((p) => (
            <Checkbox key={p} label={t(`roles.permissions.${p}`)} checked={value.includes(p)} disabled={disabled(p)} onChange={(e) => toggle(p, e.target.checked)} />
          ))}
        </fieldset>
      ))}
      {error && <p className="field-error" role="alert">{error}</p>}
    </div>
  );
}

function RoleFormDialog({ open, onClose, entity }: EntityFormProps<RoleRow>) {
  const { t } = useTranslation('backoffice');
  const roleName = useRoleName();
  const mine = permissionsOf(useSession().user);
  const { register, handleSubmit, formState, control, submit, saving } = useCrudForm<RoleForm>({
    schema: roleSchema, path: '/roles', fields: FIELDS, entity, onClose, updatePath: (id) => `/roles/${id}`,
    defaults: { name: entity?.name ?? '', permissions: (entity?.permissions ?? []).filter((p): p is Permission => (PERMISSIONS as readonly string[]).includes(p)) },
  });

  if (entity?.builtin) {
    return (
      <Dialog open={open} onClose={onClose} title={t('roles.view', { name: roleName(entity) })} size="md"
        footer={<Button variant="secondary" onClick={onClose}>{t('roles.close')}</Button>}>
        <p className="text-muted">{t('roles.builtinNote')}</p>
        <PermissionGroups value={entity.permissions} disabled={() => true} />
      </Dialog>
    );
  }

  const e = formState.errors;
  // A server refusal of one permission (permissions[i]) is shown under the groups.
  const permErrors = Array.isArray(e.permissions) ? e.permissions.map((x) => x?.message).filter(Boolean).join(' ') : e.permissions?.message;
  return (
    <CrudFormDialog open={open} onClose={onClose} texts="roles" editing={!!entity} saving={saving}
      onSubmit={handleSubmit((v) => submit({ name: v.name.trim(), permissions: v.permissions }))}>
      <Input label={t('roles.name')} required autoFocus error={e.name?.message} {...register('name')} />
      <p className="text-muted">{t('roles.cannotGrant')}</p>
      <Controller
        control={control}
        name="permissions"
        render={({ field }) => (
          // What the editor does not hold cannot be ticked (or unticked: the server would refuse the role).
          <PermissionGroups value={field.value} onChange={field.onChange} disabled={(p) => !mine.includes(p)} error={permErrors} />
        )}
      />
    </CrudFormDialog>
  );
}

const isBuiltin = (r: RoleRow) => r.builtin != null;

export function RolesTab() {
  const { t } = useTranslation('backoffice');
  const roleName = useRoleName();
  const columns = useMemo<ColumnDef<RoleRow, any>[]>(
    () => [
      { id: 'name', accessorFn: (r) => roleName(r), header: t('roles.name'), enableSorting: false, enableColumnFilter: false },
      { id: 'kind', accessorFn: (r) => t(r.builtin ? 'roles.builtinKind' : 'roles.customKind'), header: t('roles.kind'), enableSorting: false, enableColumnFilter: false },
      {
        id: 'permissions',
        header: t('roles.permissionsCol'),
        enableSorting: false,
        enableColumnFilter: false,
        cell: ({ row }) => (
          <span title={row.original.permissions.map((p) => t(`roles.permissions.${p}`, { defaultValue: p })).join(', ')}>
            {t('roles.permissionCount', { count: row.original.permissions.length })}
          </span>
        ),
      },
    ],
    // roleName depends on t only.
    [t],
  );
  return (
    <CrudTab<RoleRow>
      url="/roles"
      itemsKey="list"
      totalKey="total"
      searchable={false}
      columns={columns}
      addLabel={t('roles.add')}
      rowLabel={(r) => roleName(r)}
      readOnly={isBuiltin}
      remove={{ question: () => t('roles.deleteQ') }}
      Form={RoleFormDialog}
    />
  );
}
