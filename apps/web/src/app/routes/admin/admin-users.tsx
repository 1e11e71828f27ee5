import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';

/* Spec 2.1: /users, /users/create and /users/edit/:id are placeholders with only a heading
   (users are managed in the till's Settings > Users). */

export function AdminUsersRoute() {
  const { t } = useTranslation('admin');
  return <h1>{t('users.title')}</h1>;
}

export function AdminUserCreateRoute() {
  const { t } = useTranslation('admin');
  return <h1>{t('users.create')}</h1>;
}

export function AdminUserEditRoute() {
  const { t } = useTranslation('admin');
  const { id = '' } = useParams();
  return <h1>{t('users.edit', { id })}</h1>;
}
