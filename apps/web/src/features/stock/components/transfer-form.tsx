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
import { createTransfer, stockKeys } from '../api/stock.ts';
import { errorKey, qtyText, transferSchema, type TransferForm } from '../lib/forms.ts';
import type { PickedItem, VariantRef } from '../lib/types.ts';
import { ItemAdder, lineIndexOf, plusOne, variantOptions } from './item-lines.tsx';
import { storeOptions, useStockStores, type PickerSlot } from './stock-common.tsx';
import { StockTabs } from './stock-lists.tsx';

const FIELDS = ['fromStore', 'toStore', 'note', 'lines'];

/** /admin/stock/transfers/new: from and to store, lines by scanning or picking, a note; requests the transfer. */
export function TransferNewPage({ picker }: { picker?: PickerSlot }) {
  const { t } = useTranslation('stock');
  const stores = useStockStores();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [variantsOf, setVariantsOf] = useState<Record<number, VariantRef[]>>({});
  const { register, handleSubmit, control, formState, setError, getValues, setValue } = useForm<TransferForm>({
    resolver: zodResolver(transferSchema),
    defaultValues: { fromStore: stores[0] ? String(stores[0].id) : '', toStore: stores[1] ? String(stores[1].id) : '', note: '', lines: [] },
  });
  const lines = useFieldArray({ control, name: 'lines' });
  const e = formState.errors;
  const msg = (m?: string) => errorKey(t, m);

  function add(item: PickedItem) {
    if (item.variants?.length) setVariantsOf((v) => ({ ...v, [item.product.id]: item.variants! }));
    const i = lineIndexOf(getValues('lines'), item);
    if (i >= 0) setValue(`lines.${i}.quantity`, plusOne(getValues(`lines.${i}.quantity`)), { shouldValidate: true });
    else lines.append({ product: item.product.id, name: item.product.name, variant: item.variant ? String(item.variant.id) : '', quantity: '1' });
    toast.success(t('common.added', { name: item.product.name }));
  }

  const submit = handleSubmit(async (v) => {
    try {
      const res = await createTransfer({
        fromStore: Number(v.fromStore), toStore: Number(v.toStore), note: v.note.trim() || undefined,
        lines: v.lines.map((l) => ({ product: l.product, variant: l.variant ? Number(l.variant) : null, quantity: qtyText(l.quantity) })),
      });
      await client.invalidateQueries({ queryKey: stockKeys.transfers });
      toast.success(t('transfers.created', { number: res.transfer.number }));
      navigate(`/admin/stock/transfers/${res.transfer.id}`);
    } catch (error) {
      applyServerErrors(error, setError, (m) => toast.error(m), FIELDS);
    }
  });

  return (
    <div className="stock-page">
      <h1>{t('transfers.newTitle')}</h1>
      <StockTabs />
      <form className="stock-form" onSubmit={submit} noValidate>
        <div className="form-row">
          <Select label={t('transfers.from')} required options={storeOptions(stores)} error={msg(e.fromStore?.message)} {...register('fromStore')} />
          <Select label={t('transfers.to')} required options={storeOptions(stores)} error={msg(e.toStore?.message)} {...register('toStore')} />
        </div>
        <ItemAdder onAdd={add} picker={picker} />
        <table className="table table-compact stock-lines stock-cards">
          <caption className="visually-hidden">{t('common.product')}</caption>
          <thead><tr><th>{t('common.product')}</th><th>{t('common.variant')}</th><th>{t('common.quantity')}</th><th><span className="visually-hidden">{t('common.actions')}</span></th></tr></thead>
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
                  <Input aria-label={t('common.qtyOf', { name: f.name })} inputMode="decimal" error={msg(e.lines?.[i]?.quantity?.message)} {...register(`lines.${i}.quantity`)} />
                </td>
                <td data-label={t('common.actions')}>
                  <Button variant="ghost" className="stock-touch" aria-label={t('common.removeNamed', { name: f.name })} onClick={() => lines.remove(i)}>✕</Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {e.lines?.message && <p className="field-error" role="alert">{msg(e.lines.message)}</p>}
        {e.lines?.root?.message && <p className="field-error" role="alert">{msg(e.lines.root.message)}</p>}
        <Input label={t('common.note')} {...register('note')} error={msg(e.note?.message)} />
        <div className="stock-actions">
          <Button type="submit" size="lg" loading={formState.isSubmitting}>{t('transfers.create')}</Button>
          <Button variant="secondary" size="lg" onClick={() => navigate('/admin/stock/transfers')}>{t('common.cancel')}</Button>
        </div>
      </form>
    </div>
  );
}
