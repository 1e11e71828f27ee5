import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AuthLayout } from '@/components/layout/auth-layout';
import { ForgotPasswordForm } from '@/features/auth/components/forgot-password-form';
import { ResetPasswordForm } from '@/features/auth/components/reset-password-form';

/** /admin/forgot-password: the till's request form (it sends role ROLE_USER, spec 6), back to /admin. */
export function AdminForgotPasswordRoute() {
  const { t } = useTranslation('admin');
  return (
    <AuthLayout brand={t('brand')}>
      <ForgotPasswordForm loginPath="/admin" />
    </AuthLayout>
  );
}

/** /admin/reset-password/<token>. */
export function AdminResetPasswordRoute() {
  const { t } = useTranslation('admin');
  const token = useParams()['*'] ?? '';
  return (
    <AuthLayout brand={t('brand')}>
      <ResetPasswordForm token={token} loginPath="/admin" />
    </AuthLayout>
  );
}
