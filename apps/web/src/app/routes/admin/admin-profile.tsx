import { useTranslation } from 'react-i18next';
import { ProfileForm } from '@/features/admin/components/profile-form';
import { updateUser, useSession } from '@/lib/session';

/** /admin/profile: the profile update form; the saved user replaces the session's (header name). */
export function AdminProfileRoute() {
  const { t } = useTranslation('admin');
  const { user } = useSession();
  if (!user) return null;
  return (
    <>
      <h1 id="admin-profile-title">{t('profile.title')}</h1>
      <ProfileForm key={user.id} user={user} onSaved={updateUser} />
    </>
  );
}
