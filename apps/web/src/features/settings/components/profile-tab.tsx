import { useTranslation } from 'react-i18next';
import { useSession } from '@/lib/session';

/** Read-only: the signed-in user, the chosen store and terminal. */
export function ProfileTab() {
  const { t } = useTranslation('backoffice');
  const { user, store, terminal } = useSession();
  return (
    <dl className="profile-list">
      <dt>{t('profile.user')}</dt>
      <dd>
        {user?.displayName} {user?.username && <span className="muted">({user.username})</span>}
      </dd>
      <dt>{t('profile.store')}</dt>
      <dd>{store?.name}</dd>
      <dt>{t('profile.terminal')}</dt>
      <dd>{terminal?.code}</dd>
    </dl>
  );
}
