import { useMemo } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { Controller } from 'react-hook-form';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { toOptions, useOptionList } from '@/features/list-table/hooks/use-options';
import { MultiSelect } from '@/features/list-table/components/multi-select';
import { CrudTab, type EntityFormProps } from './crud-tab.tsx';
import { CrudFormDialog, useCrudForm } from './crud-form.tsx';
import { userSchema, type UserForm } from '../lib/schemas.ts';
import { storeIds, storeNames, useStoreOptions } from '../lib/store-options.ts';
import type { RoleRow, UserRow } from '../lib/types.ts';
import { useRoleName } from './roles-tab.tsx';

const FIELDS = ['displayName', 'username', 'email', 'password', 'roles', 'role', 'pin', 'stores'];
/** The old wire's access flags, in words people use (issue 23.6): ROLE_USER = the till, ROLE_ADMIN = the back office. */
const ACCESS = ['ROLE_USER', 'ROLE_ADMIN'] as const;
const accessKey = (r: string) => (r === 'ROLE_ADMIN' ? 'users.accessAdmin' : r === 'ROLE_USER' ? 'users.accessTill' : null);

function UserFormDialog({ open, onClose, entity }: EntityFormProps<UserRow>) {
  const { t } = useTranslation('backoffice');
  const stores = useStoreOptions();
  const roleName = useRoleName();
  const roleList = useOptionList<RoleRow>('/roles', {});
  const roleOptions = toOptions(roleList.data, roleName);
  const accessOptions = ACCESS.map((value) => ({ value, label: t(accessKey(value)!) }));
  const mode = entity ? 'update' : 'create';
  const schema = useMemo(() => userSchema(mode), [mode]);
  const { register, handleSubmit, formState, control, submit, saving } = useCrudForm<UserForm>({
    schema: schema, path: '/admin/user/create', fields: FIELDS, entity, onClose, updatePath: (id) => `/admin/user/${id}`, invalidate: [['/users']],
    defaults: {
      displayName: entity?.displayName ?? '',
      username: entity?.username ?? '',
      email: entity?.email ?? '',
      password: '',
      roles: entity?.roles?.filter((r) => r === 'ROLE_USER' || r === 'ROLE_ADMIN') ?? ['ROLE_USER'],
      role: entity?.role?.id != null ? String(entity.role.id) : '',
      pin: '',
      stores: storeIds(entity?.stores),
    },
  });
  const e = formState.errors;
  return (
    <CrudFormDialog
      open={open}
      onClose={onClose}
      texts="users" editing={!!entity}
      saving={saving}
      onSubmit={handleSubmit((v) => {
        const body: Record<string, unknown> = {
          displayName: v.displayName.trim(),
          username: v.username.trim(),
          email: v.email.trim(),
          roles: v.roles,
          stores: v.stores, // numeric ids as strings (reference client 2.12)
        };
        if (v.password) body.password = v.password;
        if (v.role) body.role = v.role;
        if (v.pin) body.pin = v.pin;
        return submit(body);
      })}
    >
      <Input label={t('users.displayName')} required autoFocus error={e.displayName?.message} {...register('displayName')} />
      <Input label={t('users.username')} required autoComplete="off" error={e.username?.message} {...register('username')} />
      <Input label={t('users.email')} type="email" required error={e.email?.message} {...register('email')} />
      <Input
        label={t('users.password')}
        type="password"
        autoComplete="new-password"
        required={!entity}
        hint={entity ? t('users.passwordHint') : undefined}
        error={e.password?.message}
        {...register('password')}
      />
      <Controller
        control={control}
        name="roles"
        render={({ field, fieldState }) => (
          <MultiSelect label={t('users.roles')} required options={accessOptions} value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
        )}
      />
      <Controller
        control={control}
        name="role"
        render={({ field, fieldState }) => (
          // Controlled: the user's role shows once the roles list has loaded.
          <Select label={t('users.role')} placeholder={t('users.roleFromRoles')} options={roleOptions} value={field.value ?? ''} onChange={field.onChange} onBlur={field.onBlur} error={fieldState.error?.message} />
        )}
      />
      <Input label={t('users.pin')} type="password" inputMode="numeric" autoComplete="off" maxLength={8} hint={t('users.pinHint')} error={e.pin?.message} {...register('pin')} />
      <Controller
        control={control}
        name="stores"
        render={({ field, fieldState }) => (
          <MultiSelect label={t('common.stores')} required options={stores} value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
        )}
      />
    </CrudFormDialog>
  );
}

export function UsersTab() {
  const { t } = useTranslation('backoffice');
  const roleName = useRoleName();
  const columns = useMemo<ColumnDef<UserRow, any>[]>(
    () => [
      { id: 'displayName', accessorKey: 'displayName', header: t('users.name') },
      { id: 'username', accessorKey: 'username', header: t('users.username') },
      { id: 'email', accessorKey: 'email', header: t('users.email') },
      { id: 'roles', accessorFn: (r) => (r.roles ?? []).map((x) => { const k = accessKey(x); return k ? t(k) : x; }).join(', '), header: t('users.roles'), enableSorting: false, enableColumnFilter: false },
      { id: 'role', accessorFn: (r) => (r.role ? roleName({ name: r.role.name, builtin: r.role.key === 'custom' ? null : r.role.key }) : ''), header: t('users.role'), enableSorting: false, enableColumnFilter: false },
      { id: 'stores', accessorFn: (r) => storeNames(r.stores), header: t('common.stores'), enableSorting: false, enableColumnFilter: false },
    ],
    [t],
  );
  return (
    <CrudTab<UserRow>
      url="/users"
      columns={columns}
      addLabel={t('users.add')}
      rowLabel={(r) => r.displayName || r.username}
      toggle={{ question: (r) => t(r.isActive ? 'users.deactivateQ' : 'users.activateQ') }}
      Form={UserFormDialog}
    />
  );
}
