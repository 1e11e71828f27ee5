import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { applyServerErrors } from '@/lib/form-errors';
import { useResetPasswordMutation } from '../api/reset-password';

interface ResetValues {
  password: string;
}

/** Spec 2.4 reset form: New Password for the token in the link. */
export function ResetPasswordForm({ token, loginPath = '/' }: { token: string; loginPath?: string }) {
  const { t } = useTranslation('auth');
  const mutation = useResetPasswordMutation();
  const [banner, setBanner] = useState<{ variant: 'success' | 'error'; text: string } | null>(null);
  const { register, handleSubmit, setError, reset, formState: { errors } } = useForm<ResetValues>({ defaultValues: { password: '' } });

  const onSubmit = handleSubmit(async ({ password }) => {
    setBanner(null);
    try {
      const result = await mutation.mutateAsync({ password, resetToken: token });
      reset();
      setBanner({ variant: 'success', text: result.message });
    } catch (error) {
      // A bad token comes back as a resetToken violation: not a field here, so it lands in the banner.
      const text = applyServerErrors(error, setError, ['password']);
      if (text) setBanner({ variant: 'error', text });
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="reset-title">
      <h1 id="reset-title">{t('reset.title')}</h1>
      {banner && <Alert variant={banner.variant}>{banner.text}</Alert>}
      <Input
        label={t('reset.password')}
        type="password"
        autoComplete="new-password"
        autoFocus
        error={errors.password?.message}
        {...register('password', { required: t('common:required') })}
      />
      <Button type="submit" block size="lg" loading={mutation.isPending}>
        {t('reset.submit')}
      </Button>
      <div className="auth-links">
        <Link to={loginPath}>{t('reset.login')}</Link>
      </div>
    </form>
  );
}
