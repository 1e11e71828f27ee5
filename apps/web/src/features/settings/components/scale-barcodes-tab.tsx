import { useMemo, useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { useWatch } from 'react-hook-form';
import { z } from 'zod';
import { decodeScaleBarcode, type ScaleBarcode } from '@pos/domain/barcode';
import { SCALE_BARCODE_SETTING, SCALE_ITEM_DIGITS, checkScaleRule, scaleBarcodeExample, type StoredScaleRule } from '@pos/domain/scale-barcode-rule';
import { Input } from '@/components/ui/input';
import { FormSelect } from '@/features/list-table/components/form-select';
import { useOptionList } from '@/features/list-table/hooks/use-options';
import type { Setting } from '@/features/catalogue-cache/types';
import { useMoney } from '@/lib/money';
import { CrudTab, type EntityFormProps } from './crud-tab.tsx';
import { CrudFormDialog, useCrudForm } from './crud-form.tsx';
import type { StoreRow } from '../lib/types.ts';

/** A stored rule read back (null: a value the server took before it checked them). */
const ruleOf = (row: Setting | null | undefined): StoredScaleRule | null => {
  const check = row?.value ? checkScaleRule(row.value) : null;
  return check?.ok ? check.rule : null;
};

const splitPrefixes = (text: string) => text.split(/[\s,;]+/).filter(Boolean);

/** The form: the till's rule fields as texts, checked by the shared schema (@pos/domain/scale-barcode-rule). */
const scaleSchema = z
  .object({ store: z.string(), prefixes: z.string(), itemDigits: z.string(), embeds: z.string(), sample: z.string() })
  .superRefine((v, ctx) => {
    const check = checkScaleRule(toRule(v));
    if (!check.ok) for (const { path, message } of check.violations) ctx.addIssue({ code: 'custom', path: [path || 'prefixes'], message });
  });
type ScaleForm = z.infer<typeof scaleSchema>;

function toRule(v: Pick<ScaleForm, 'store' | 'prefixes' | 'itemDigits' | 'embeds'>) {
  return { prefixes: splitPrefixes(v.prefixes), itemDigits: Number(v.itemDigits), embeds: v.embeds, ...(v.store ? { store: Number(v.store) } : {}) };
}

function useStores() {
  return useOptionList<StoreRow>('/stores', {}).data ?? [];
}

/** "Item 12345, 0.625 kg" / "Item 12345, price $6.25". */
function useDecodedText() {
  const { t } = useTranslation('backoffice');
  return (decoded: ScaleBarcode, money: ReturnType<typeof useMoney>) =>
    decoded.grams !== undefined
      ? t('scale.decodedWeight', { item: decoded.itemCode, kg: (decoded.grams / 1000).toFixed(3) })
      : t('scale.decodedPrice', { item: decoded.itemCode, price: money.formatMinor(decoded.price ?? 0) });
}

function ScaleFormDialog({ open, onClose, entity }: EntityFormProps<Setting>) {
  const { t } = useTranslation('backoffice');
  const stores = useStores();
  const rule = ruleOf(entity);
  const { register, handleSubmit, formState, control, submit, saving } = useCrudForm<ScaleForm>({
    schema: scaleSchema, path: '/settings', fields: [], entity, onClose, invalidate: [['/settings']],
    defaults: {
      store: rule?.store ? String(rule.store) : '',
      prefixes: (rule?.prefixes ?? ['21', '22']).join(', '),
      itemDigits: String(rule?.itemDigits ?? 5),
      embeds: rule?.embeds ?? 'weight',
      sample: '',
    },
  });
  const [store, prefixes, itemDigits, embeds, sample] = useWatch({ control, name: ['store', 'prefixes', 'itemDigits', 'embeds', 'sample'] });
  const money = useMoney(stores.find((s) => String(s.id) === store) ?? null);
  const decodedText = useDecodedText();
  const check = checkScaleRule(toRule({ store, prefixes, itemDigits, embeds }));
  const example = check.ok ? scaleBarcodeExample(check.rule) : null;
  const code = sample.trim();
  const tried = check.ok && code ? decodeScaleBarcode(code, check.rule) : null;
  const e = formState.errors;
  return (
    <CrudFormDialog
      texts="scale"
      editing={!!entity}
      open={open}
      onClose={onClose}
      saving={saving}
      onSubmit={handleSubmit((v) => {
        const checked = checkScaleRule(toRule(v));
        if (checked.ok) return submit({ name: SCALE_BARCODE_SETTING, type: SCALE_BARCODE_SETTING, value: JSON.stringify(checked.rule) });
      })}
    >
      <FormSelect control={control} name="store" label={t('scale.store')} options={[{ value: '', label: t('scale.allStores') }, ...stores.map((s) => ({ value: String(s.id), label: s.name }))]} error={e.store?.message} />
      <Input label={t('scale.prefixes')} hint={t('scale.prefixesHint')} required autoFocus error={e.prefixes?.message} {...register('prefixes')} />
      <FormSelect control={control} name="itemDigits" label={t('scale.itemDigits')} options={SCALE_ITEM_DIGITS.map((d) => ({ value: String(d), label: t('scale.digits', { item: d, value: 10 - d }) }))} error={e.itemDigits?.message} />
      <FormSelect control={control} name="embeds" label={t('scale.embeds')} options={[{ value: 'weight', label: t('scale.weight') }, { value: 'price', label: t('scale.price') }]} error={e.embeds?.message} />
      <p role="status" aria-label={t('scale.example')} className="text-muted">
        {example ? <><bdi dir="ltr"><code>{example.code}</code></bdi> → {decodedText(example.decoded, money)}</> : t('scale.noExample')}
      </p>
      <Input label={t('scale.sample')} hint={t('scale.sampleHint')} inputMode="numeric" dir="ltr" {...register('sample')} />
      {code && check.ok && <p aria-live="polite">{tried ? decodedText(tried, money) : t('scale.notScale')}</p>}
    </CrudFormDialog>
  );
}

/** Settings > Scale barcodes (issue 26): the per-store rules the till reads weighed and priced labels (prefix 2x) with. */
export function ScaleBarcodesTab() {
  const { t } = useTranslation('backoffice');
  const stores = useStores();
  const [params] = useState({ name: SCALE_BARCODE_SETTING });
  const columns = useMemo<ColumnDef<Setting, any>[]>(
    () => [
      {
        id: 'store', header: t('scale.store'), enableSorting: false, enableColumnFilter: false,
        accessorFn: (r) => {
          const rule = ruleOf(r);
          if (!rule) return t('scale.invalid');
          return rule.store ? stores.find((s) => s.id === rule.store)?.name ?? `#${rule.store}` : t('scale.allStores');
        },
      },
      { id: 'prefixes', header: t('scale.prefixes'), enableSorting: false, enableColumnFilter: false, accessorFn: (r) => ruleOf(r)?.prefixes.join(', ') ?? '' },
      { id: 'itemDigits', header: t('scale.itemDigits'), enableSorting: false, enableColumnFilter: false, accessorFn: (r) => ruleOf(r)?.itemDigits ?? '' },
      { id: 'embeds', header: t('scale.embeds'), enableSorting: false, enableColumnFilter: false, accessorFn: (r) => { const rule = ruleOf(r); return rule ? t(rule.embeds === 'price' ? 'scale.price' : 'scale.weight') : ''; } },
    ],
    [t, stores],
  );
  return (
    <CrudTab<Setting>
      url="/settings"
      params={params}
      columns={columns}
      addLabel={t('scale.add')}
      rowLabel={(r) => ruleOf(r)?.prefixes.join(', ') ?? r.name}
      remove={{ question: () => t('scale.deleteQ') }}
      searchable={false}
      Form={ScaleFormDialog}
    />
  );
}
