import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { applyServerErrors } from '@/lib/form-errors';
import type { LoginInput } from '../api/login';
import { useSignIn } from '../hooks/use-sign-in';

export interface LoginFormProps {
  /** The portal asked for: ROLE_USER (till, default) or ROLE_ADMIN (admin shell). */
  role?: string;
  /** Where 'Forgot Password?' leads (default /forgot-password). */
  forgotPath?: string;
}

/** Spec 2.2. On success the session has a user without store/terminal: the chooser takes over. */
export function LoginForm({ role, forgotPath = '/forgot-password' }: LoginFormProps = {}) {
  const { t } = useTranslation('auth');
  const signIn = useSignIn(role);
  const [banner, setBanner] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState: { errors } } = useForm<LoginInput>({
    defaultValues: { username: '', password: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setBanner(null);
    try {
      await signIn.mutateAsync(values);
    } catch (error) {
      setBanner(applyServerErrors(error, setError, ['username', 'password']));
    }
  });

  const required = t('common:required');
  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="login-title">
      <h1 id="login-title">{t('login.title')}</h1>
      {banner && <Alert>{banner}</Alert>}
      <Input
        label={t('login.username')}
        autoComplete="username"
        autoFocus
        error={errors.username?.message}
        {...register('username', { required })}
      />
      <Input
        label={t('login.password')}
        type="password"
        autoComplete="current-password"
        error={errors.password?.message}
        {...register('password', { required })}
      />
      <Button type="submit" block size="lg" loading={signIn.isPending}>
        {t('login.submit')}
      </Button>
      <div className="auth-links">
        <Link to={forgotPath}>{t('login.forgot')}</Link>
      </div>
    </form>
  );
}
