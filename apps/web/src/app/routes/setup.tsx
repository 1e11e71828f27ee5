import { Navigate } from 'react-router';
import { AuthLayout } from '@/components/layout/auth-layout';
import { FullScreenSpinner } from '@/components/ui/spinner';
import { SetupForm } from '@/features/setup/setup-form';
import { useSetupStatus } from '@/features/setup/api';

/** `/setup`: the first-run setup while the install has no user; afterwards back to the login. */
export function SetupRoute() {
  const status = useSetupStatus();
  if (status.isPending) return <FullScreenSpinner />;
  if (!status.data?.needed) return <Navigate to="/" replace />;
  return (
    <AuthLayout>
      <SetupForm />
    </AuthLayout>
  );
}
