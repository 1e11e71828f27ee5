import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFieldArray, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { toast } from '@/components/ui/toast';
import { applyServerErrors } from '@/features/list-table/hooks/use-server-errors';
import { createAdjustment, stockKeys } from '../api/stock.ts';
import { adjustmentSchema, errorKey, qtyText, type AdjustmentForm } from '../lib/forms.ts';
import { ADJUSTMENT_REASONS, type PickedItem, type VariantRef } from '../lib/types.ts';
import { ItemAdder, lineIndexOf, variantOptions } from './item-lines.tsx';
import { storeOptions, useStockStores, type PickerSlot } from './stock-common.tsx';
import { StockTabs } from './stock-lists.tsx';

const FIELDS = ['store', 'note', 'lines'];

/** /admin/stock/adjustments/new: lines of product, signed quantity, reason (damage, theft, ...) and note. */
export function AdjustmentNewPage({ picker }: { picker?: PickerSlot }) {
  const { t } = useTranslation('stock');
  const stores = useStockStores();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [variantsOf, setVariantsOf] = useState<Record<number, VariantRef[]>>({});
  const { register, handleSubmit, control, formState, setError, getValues, watch } = useForm<AdjustmentForm>({
    resolver: zodResolver(adjustmentSchema),
    defaultValues: { store: stores[0] ? String(stores[0].id) : '', note: '', lines: [] },
  });
  const lines = useFieldArray({ control, name: 'lines' });
  const e = formState.errors;
  const msg = (m?: string, i?: number) => {
    const reason = i === undefined ? undefined : watch(`lines.${i}.reason`);
    return m && reason && m.startsWith('adjustments.') ? t(m, { reason: t(`adjustments.reasons.${reason}`) }) : errorKey(t, m);
  };
  const reasons = ADJUSTMENT_REASONS.map((r) => ({ value: r, label: t(`adjustments.reasons.${r}`) }));

  function add(item: PickedItem) {
    if (item.variants?.length) setVariantsOf((v) => ({ ...v, [item.product.id]: item.variants! }));
    if (lineIndexOf(getValues('lines'), item) >= 0) return;
    lines.append({ product: item.product.id, name: item.product.name, variant: item.variant ? String(item.variant.id) : '', quantity: '-1', reason: 'damage', note: '' });
    toast.success(t('common.added', { name: item.product.name }));
  }

  const submit = handleSubmit(async (v) => {
    try {
      const res = await createAdjustment({
        store: Number(v.store), note: v.note.trim() || undefined,
        lines: v.lines.map((l) => ({ product: l.product, variant: l.variant ? Number(l.variant) : null, quantity: qtyText(l.quantity), reason: l.reason, note: l.note.trim() || undefined })),
      });
      await client.invalidateQueries({ queryKey: stockKeys.adjustments });
      toast.success(t('adjustments.created', { number: res.adjustment.number }));
      navigate(`/admin/stock/adjustments/${res.adjustment.id}`);
    } catch (error) {
      applyServerErrors(error, setError, (m) => toast.error(m), FIELDS);
    }
  });

  return (
    <div className="stock-page">
      <h1>{t('adjustments.newTitle')}</h1>
      <StockTabs />
      <form className="stock-form" onSubmit={submit} noValidate>
        <Select label={t('common.store')} required options={storeOptions(stores)} error={errorKey(t, e.store?.message)} {...register('store')} />
        <ItemAdder onAdd={add} picker={picker} />
        <p className="muted">{t('adjustments.qtyHint')}</p>
        <table className="table table-compact stock-lines stock-cards">
          <caption className="visually-hidden">{t('adjustments.lines')}</caption>
          <thead>
            <tr><th>{t('common.product')}</th><th>{t('common.variant')}</th><th>{t('common.quantity')}</th><th>{t('adjustments.reason')}</th><th>{t('adjustments.lineNote')}</th><th><span className="visually-hidden">{t('common.actions')}</span></th></tr>
          </thead>
          <tbody>
            {lines.fields.map((f, i) => (
              <tr key={f.id}>
                <td className="stock-cell-product">{f.name}{e.lines?.[i]?.product?.message && <span className="field-error" role="alert"> {e.lines[i]!.product!.message}</span>}</td>
                <td data-label={t('common.variant')}>
                  {variantsOf[f.product]?.length
                    ? <Select aria-label={`${t('common.variant')}: ${f.name}`} placeholder={t('common.anyVariant')} options={variantOptions(variantsOf[f.product])} {...register(`lines.${i}.variant`)} />
                    : '—'}
                </td>
                <td data-label={t('common.quantity')}>
                  <Input aria-label={t('common.qtyOf', { name: f.name })} inputMode="decimal" error={msg(e.lines?.[i]?.quantity?.message, i)} {...register(`lines.${i}.quantity`)} />
                </td>
                <td data-label={t('adjustments.reason')}>
                  <Select aria-label={`${t('adjustments.reason')}: ${f.name}`} options={reasons} {...register(`lines.${i}.reason`)} />
                </td>
                <td data-label={t('adjustments.lineNote')}>
                  <Input aria-label={`${t('adjustments.lineNote')}: ${f.name}`} {...register(`lines.${i}.note`)} />
                </td>
                <td data-label={t('common.actions')}>
                  <Button variant="ghost" className="stock-touch" aria-label={t('common.removeNamed', { name: f.name })} onClick={() => lines.remove(i)}>✕</Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {e.lines?.message && <p className="field-error" role="alert">{errorKey(t, e.lines.message)}</p>}
        {e.lines?.root?.message && <p className="field-error" role="alert">{errorKey(t, e.lines.root.message)}</p>}
        <Input label={t('common.note')} error={errorKey(t, e.note?.message)} {...register('note')} />
        <div className="stock-actions">
          <Button type="submit" size="lg" loading={formState.isSubmitting}>{t('adjustments.create')}</Button>
          <Button variant="secondary" size="lg" onClick={() => navigate('/admin/stock/adjustments')}>{t('common.cancel')}</Button>
        </div>
      </form>
    </div>
  );
}
