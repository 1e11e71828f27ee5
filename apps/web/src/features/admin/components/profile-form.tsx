import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { applyServerErrors } from '@/lib/form-errors';
import type { User } from '@/lib/session';
import { useUpdateProfileMutation } from '../api/update-profile';

const FIELDS = ['displayName', 'email', 'username', 'password'] as const;

export interface ProfileFormProps {
  user: User;
  /** The user as the server saved it (the route puts it into the session). */
  onSaved: (user: User) => void;
}

/**
 * Profile update (spec 2.1 admin /profile): display name, e-mail, username and a new password
 * (blank keeps the current one). Server violations land under their fields; anything else in the
 * banner above the form.
 */
export function ProfileForm({ user, onSaved }: ProfileFormProps) {
  const { t } = useTranslation('admin');
  const mutation = useUpdateProfileMutation();
  const [banner, setBanner] = useState<{ variant: 'success' | 'error'; text: string } | null>(null);

  const schema = useMemo(() => {
    const required = t('common:required');
    return z.object({
      displayName: z.string().trim().min(1, required),
      email: z.union([z.literal(''), z.email(t('profile.invalidEmail'))]),
      username: z.string().trim().min(1, required),
      password: z.string(),
    });
  }, [t]);
  type Values = z.infer<typeof schema>;

  const { register, handleSubmit, setError, resetField, formState: { errors } } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { displayName: user.displayName ?? '', email: user.email ?? '', username: user.username, password: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setBanner(null);
    try {
      const { user: saved } = await mutation.mutateAsync({ ...values, email: values.email || null });
      resetField('password');
      onSaved(saved);
      setBanner({ variant: 'success', text: t('profile.saved') });
    } catch (error) {
      const text = applyServerErrors(error, setError, FIELDS);
      if (text) setBanner({ variant: 'error', text });
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="admin-form" aria-labelledby="admin-profile-title">
      {banner && <Alert variant={banner.variant}>{banner.text}</Alert>}
      <Input label={t('profile.displayName')} autoComplete="name" required error={errors.displayName?.message} {...register('displayName')} />
      <Input label={t('profile.email')} type="email" autoComplete="email" error={errors.email?.message} {...register('email')} />
      <Input label={t('profile.username')} autoComplete="username" required error={errors.username?.message} {...register('username')} />
      <Input
        label={t('profile.password')}
        type="password"
        autoComplete="new-password"
        hint={t('profile.passwordHint')}
        error={errors.password?.message}
        {...register('password')}
      />
      <Button type="submit" loading={mutation.isPending}>{t('profile.submit')}</Button>
    </form>
  );
}
