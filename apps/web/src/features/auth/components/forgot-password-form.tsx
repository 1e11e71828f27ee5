import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { HttpError } from '@/lib/api-client';
import { applyServerErrors, errorText } from '@/lib/form-errors';
import { useForgotPasswordMutation, type ForgotPasswordInput } from '../api/forgot-password';

/** Spec 2.4 request screen: success banner with the server message, or error banner + field errors. */
export function ForgotPasswordForm({ loginPath = '/' }: { loginPath?: string } = {}) {
  const { t } = useTranslation('auth');
  const mutation = useForgotPasswordMutation();
  const [banner, setBanner] = useState<{ variant: 'success' | 'error'; text: string } | null>(null);
  const { register, handleSubmit, setError, formState: { errors } } = useForm<ForgotPasswordInput>({ defaultValues: { username: '' } });

  const onSubmit = handleSubmit(async (values) => {
    setBanner(null);
    try {
      const result = await mutation.mutateAsync(values);
      setBanner({ variant: 'success', text: result.message });
    } catch (error) {
      applyServerErrors(error, setError, ['username']);
      // 422: errorMessage in the banner as well as the field errors (spec 8).
      const text = error instanceof HttpError && error.status === 422 ? error.errorMessage : errorText(error);
      if (text) setBanner({ variant: 'error', text });
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="forgot-title">
      <h1 id="forgot-title">{t('forgot.title')}</h1>
      {banner && <Alert variant={banner.variant}>{banner.text}</Alert>}
      <Input
        label={t('forgot.username')}
        autoComplete="username"
        autoFocus
        error={errors.username?.message}
        {...register('username', { required: t('common:required') })}
      />
      <Button type="submit" block size="lg" loading={mutation.isPending}>
        {t('forgot.submit')}
      </Button>
      <div className="auth-links">
        <Link to={loginPath}>{t('forgot.login')}</Link>
      </div>
    </form>
  );
}
