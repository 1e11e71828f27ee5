import { useTranslation } from 'react-i18next';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { toast } from '@/components/ui/toast';
import { toOptions, useOptionList } from '@/features/list-table/hooks/use-options';
import { applyServerErrors } from '@/features/list-table/hooks/use-server-errors';
import { createCount, stockKeys } from '../api/stock.ts';
import { countSchema, errorKey, type CountForm } from '../lib/forms.ts';
import { storeOptions, useStockStores } from './stock-common.tsx';
import { StockTabs } from './stock-lists.tsx';

const SCOPES = ['full', 'category', 'brand', 'supplier', 'location'] as const;
const SCOPE_PATHS = { category: '/categories', brand: '/brands', supplier: '/suppliers' } as const;

/** /admin/stock/counts/new: a full count of a store, or one category, brand, supplier or shelf location. */
export function CountNewPage() {
  const { t } = useTranslation('stock');
  const stores = useStockStores();
  const navigate = useNavigate();
  const client = useQueryClient();
  const { register, handleSubmit, watch, formState, setError } = useForm<CountForm>({
    resolver: zodResolver(countSchema),
    defaultValues: { store: stores[0] ? String(stores[0].id) : '', scope: 'full', scopeId: '', location: '', note: '' },
  });
  const scope = watch('scope');
  const path = scope === 'full' || scope === 'location' ? null : SCOPE_PATHS[scope];
  const choices = useOptionList<{ id: number; name: string }>(path ?? '/categories', {}, path !== null);
  const e = formState.errors;
  const submit = handleSubmit(async (v) => {
    try {
      const res = await createCount({
        store: Number(v.store), scope: v.scope, scopeId: v.scope === 'full' || v.scope === 'location' ? null : Number(v.scopeId),
        location: v.scope === 'location' ? v.location.trim() : undefined, note: v.note.trim() || undefined,
      });
      await client.invalidateQueries({ queryKey: stockKeys.counts });
      toast.success(t('counts.created', { number: res.count.number }));
      navigate(`/admin/stock/counts/${res.count.id}`);
    } catch (error) {
      applyServerErrors(error, setError, (m) => toast.error(m), ['store', 'scope', 'scopeId', 'location', 'note']);
    }
  });
  return (
    <div className="stock-page">
      <h1>{t('counts.newTitle')}</h1>
      <StockTabs />
      <form className="stock-form admin-form" onSubmit={submit} noValidate>
        <Select label={t('common.store')} required options={storeOptions(stores)} error={errorKey(t, e.store?.message)} {...register('store')} />
        <Select label={t('counts.scope')} required options={SCOPES.map((s) => ({ value: s, label: t(`counts.scopes.${s}`) }))} {...register('scope')} />
        {path && (
          <Select label={t('counts.scopeValue')} required placeholder="—" options={toOptions(choices.data, (c) => c.name)} error={errorKey(t, e.scopeId?.message)} {...register('scopeId')} />
        )}
        {scope === 'location' && (
          <Input label={t('counts.location')} required hint={t('counts.locationHint')} autoComplete="off" error={errorKey(t, e.location?.message)} {...register('location')} />
        )}
        <Input label={t('common.note')} error={errorKey(t, e.note?.message)} {...register('note')} />
        <div className="stock-actions">
          <Button type="submit" size="lg" loading={formState.isSubmitting}>{t('counts.create')}</Button>
          <Button variant="secondary" size="lg" onClick={() => navigate('/admin/stock/counts')}>{t('common.cancel')}</Button>
        </div>
      </form>
    </div>
  );
}
