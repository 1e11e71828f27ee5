import { useParams } from 'react-router';
import { AuthLayout } from '@/components/layout/auth-layout';
import { ResetPasswordForm } from '@/features/auth/components/reset-password-form';

/** /reset-password/<token>: the token is everything after the prefix. */
export function ResetPasswordRoute() {
  const token = useParams()['*'] ?? '';
  return (
    <AuthLayout>
      <ResetPasswordForm token={token} />
    </AuthLayout>
  );
}
