import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { applyServerErrors } from '@/lib/form-errors';
import { useSignIn } from '@/features/auth/hooks/use-sign-in';
import { useRunSetup, type SetupInput } from './api';

const FIELDS = ['shopName', 'currency', 'timeZone', 'displayName', 'username', 'password'] as const;
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** First run: the shop (name, currency, time zone) and its owner; then the owner is signed in. */
export function SetupForm() {
  const { t } = useTranslation('setup');
  const queryClient = useQueryClient();
  const setup = useRunSetup();
  const signIn = useSignIn();
  const [banner, setBanner] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState: { errors } } = useForm<SetupInput>({
    defaultValues: { shopName: '', currency: 'USD', timeZone: browserZone(), displayName: '', username: '', password: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setBanner(null);
    try {
      await setup.mutateAsync({ ...values, currency: values.currency.trim().toUpperCase() });
      await signIn.mutateAsync({ username: values.username, password: values.password });
      queryClient.setQueryData(['setup-status'], { needed: false });
    } catch (error) {
      setBanner(applyServerErrors(error, setError, FIELDS));
    }
  });

  const required = t('common:required');
  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="setup-title">
      <h1 id="setup-title">{t('title')}</h1>
      <p>{t('intro')}</p>
      {banner && <Alert>{banner}</Alert>}
      <Input label={t('shopName')} autoFocus error={errors.shopName?.message} {...register('shopName', { required })} />
      <Input label={t('currency')} hint={t('currencyHint')} maxLength={3} error={errors.currency?.message} {...register('currency', { required })} />
      <Input label={t('timeZone')} hint={t('timeZoneHint')} error={errors.timeZone?.message} {...register('timeZone', { required })} />
      <h2>{t('owner')}</h2>
      <Input label={t('displayName')} autoComplete="name" error={errors.displayName?.message} {...register('displayName')} />
      <Input label={t('username')} autoComplete="username" error={errors.username?.message} {...register('username', { required })} />
      <Input
        label={t('password')}
        type="password"
        autoComplete="new-password"
        hint={t('passwordHint')}
        error={errors.password?.message}
        {...register('password', { required, minLength: { value: 8, message: t('passwordHint') } })}
      />
      <Button type="submit" block size="lg" loading={setup.isPending || signIn.isPending}>
        {t('submit')}
      </Button>
    </form>
  );
}
