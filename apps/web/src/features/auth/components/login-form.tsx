import { useState, type FormEvent } from 'react';
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
  // A plain form (no form library): the sign-in page is the first thing a till downloads.
  const [errors, setErrors] = useState<Partial<Record<keyof LoginInput, string>>>({});

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const values: LoginInput = { username: String(data.get('username') ?? ''), password: String(data.get('password') ?? '') };
    const required = t('common:required');
    const missing = {
      ...(values.username ? {} : { username: required }),
      ...(values.password ? {} : { password: required }),
    };
    setErrors(missing);
    if (Object.keys(missing).length) {
      const first = event.currentTarget.elements.namedItem(values.username ? 'password' : 'username');
      if (first instanceof HTMLElement) first.focus();
      return;
    }
    setBanner(null);
    try {
      await signIn.mutateAsync(values);
    } catch (error) {
      setBanner(applyServerErrors<LoginInput>(error, (name, e) => setErrors((prev) => ({ ...prev, [name]: e.message })), ['username', 'password']));
    }
  };

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate aria-labelledby="login-title">
      <h1 id="login-title">{t('login.title')}</h1>
      {banner && <Alert>{banner}</Alert>}
      <Input
        label={t('login.username')}
        autoComplete="username"
        autoFocus
        name="username"
        error={errors.username}
      />
      <Input
        label={t('login.password')}
        type="password"
        autoComplete="current-password"
        name="password"
        error={errors.password}
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
