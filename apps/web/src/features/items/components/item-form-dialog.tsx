import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Controller, useFieldArray, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { randomBarcode, type VariantGroup } from '@pos/domain/variants';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { NumberInput } from '@/components/ui/number-input';
import { MoneyInput } from '@/components/ui/money-input';
import { Select } from '@/components/ui/select';
import { toast } from '@/components/ui/toast';
import { useWorkingStore } from '@/lib/working-store';
import { FormDialog } from '@/features/list-table/components/form-dialog';
import { MultiSelect } from '@/features/list-table/components/multi-select';
import { FormSelect } from '@/features/list-table/components/form-select';
import { toOptions, useOptionList } from '@/features/list-table/hooks/use-options';
import { useSaveEntity } from '@/features/list-table/hooks/use-save-entity';
import { applyServerErrors } from '@/features/list-table/hooks/use-server-errors';
import { VariantGroups } from './variant-groups.tsx';
import { emptyPriceRule, itemDefaults, itemPayload, itemSchema, newVariantRow, previewVariants, WEEKDAYS, type ItemForm } from '../lib/item-schema.ts';
import type { Product } from '../lib/types.ts';

export interface ItemFormDialogProps {
  open: boolean;
  onClose: () => void;
  /** null: "Create item". */
  product: Product | null;
  /** The back office's /admin/catalogue/new and /admin/catalogue/:id: the same form as a page. */
  asPage?: boolean;
}

const FIELDS = [
  'name', 'barcode', 'barcodeType', 'department', 'saleUnit', 'basePrice', 'purchaseUnit', 'cost', 'manageInventory', 'taxes',
  'categories', 'suppliers', 'brands', 'terminals', 'stores', 'variants', 'prices',
];

interface Named {
  id: number;
  name: string;
  rate?: number | string;
  code?: string;
}

/** "Create item" / "Update item" (full size). */
export function ItemFormDialog({ open, onClose, product, asPage }: ItemFormDialogProps) {
  const { t } = useTranslation('backoffice');
  const store = useWorkingStore();
  const departments = toOptions(useOptionList<Named>('/departments').data, (d) => d.name);
  const categories = toOptions(useOptionList<Named>('/categories').data, (d) => d.name);
  const suppliers = toOptions(useOptionList<Named>('/suppliers').data, (d) => d.name);
  const brands = toOptions(useOptionList<Named>('/brands').data, (d) => d.name);
  const taxes = toOptions(useOptionList<Named>('/taxes').data, (d) => `${d.name} ${d.rate ?? ''}%`);
  const terminals = toOptions(useOptionList<Named>('/terminals').data, (d) => d.code ?? d.name);
  const stores = toOptions(useOptionList<Named>('/stores', {}).data, (d) => d.name);

  const defaults = useMemo(() => itemDefaults(product, store?.id ?? null), [product, store?.id]);
  const { register, handleSubmit, setError, setValue, control, formState } = useForm<ItemForm>({
    resolver: zodResolver(itemSchema),
    defaultValues: defaults,
  });
  const storeRows = useFieldArray({ control, name: 'stores' });
  const variantRows = useFieldArray({ control, name: 'variants' });
  const priceRows = useFieldArray({ control, name: 'prices' });
  const [groups, basePrice, barcode] = useWatch({ control, name: ['groups', 'basePrice', 'barcode'] });
  const preview = useMemo(() => (product ? [] : previewVariants({ groups, basePrice, barcode })), [product, groups, basePrice, barcode]);

  const save = useSaveEntity({ createPath: '/products', invalidate: [['/products'], ['options', '/admin/product/keywords']] });
  const e = formState.errors;

  const submit = handleSubmit(async (values) => {
    try {
      await save.mutateAsync({ id: product?.id, body: itemPayload(values, product) });
      toast.success(product ? t('items.updated') : t('items.created'));
      onClose();
    } catch (error) {
      // Spec 8: the item form titles the toast "Validation Error", plain errors use their code; it stays open.
      applyServerErrors(error, setError, (m, title) => toast.error(m, { title: title ?? t('items.validationError') }), FIELDS, t('items.validationError'));
    }
  });

  const multi = (name: 'categories' | 'suppliers' | 'brands' | 'taxes' | 'terminals', label: string, options: typeof categories, required: boolean) => (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <MultiSelect label={label} required={required} options={options} value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
      )}
    />
  );

  return (
    <FormDialog open={open} asPage={asPage} onClose={onClose} size="full" className="item-form" title={product ? t('items.update') : t('items.create')} saving={save.isPending} onSubmit={submit}>
      <fieldset className="form-section">
        <legend>{t('items.information')}</legend>
        <div className="form-row">
          <Input label={t('items.name')} required autoFocus error={e.name?.message} {...register('name')} />
          <div className="inline-form">
            <Input label={t('items.barcode')} required disabled={!!product} error={e.barcode?.message} {...register('barcode')} />
            {!product && (
              <Button variant="secondary" aria-label={t('items.newBarcode')} title={t('items.newBarcode')} onClick={() => setValue('barcode', randomBarcode(), { shouldValidate: true })}>
                ⟳
              </Button>
            )}
          </div>
          <FormSelect
            control={control}
            name="barcodeType"
            label={t('items.barcodeType')}
            disabled={!!product}
            placeholder={t('items.barcodeTypeAny')}
            options={[{ value: 'ean13', label: 'EAN-13' }, { value: 'ean8', label: 'EAN-8' }, { value: 'upca', label: 'UPC-A' }, { value: 'upce', label: 'UPC-E' }]}
          />
          <FormSelect control={control} name="department" label={t('items.department')} required placeholder={t('common.choose')} options={departments} />
        </div>
        <div className="form-row">
          <MoneyInput label={t('items.salePrice')} required error={e.basePrice?.message} {...register('basePrice')} />
          <Input label={t('items.saleUnit')} required error={e.saleUnit?.message} {...register('saleUnit')} />
          <MoneyInput label={t('items.purchasePrice')} required error={e.cost?.message} {...register('cost')} />
          <Input label={t('items.purchaseUnit')} required error={e.purchaseUnit?.message} {...register('purchaseUnit')} />
        </div>
        <Checkbox label={t('items.manageInventory')} {...register('manageInventory')} />
      </fieldset>

      <div className="form-row form-row--wrap">
        {multi('categories', t('items.categories'), categories, true)}
        {multi('suppliers', t('items.suppliers'), suppliers, true)}
        {multi('brands', t('items.brands'), brands, true)}
        {multi('taxes', t('items.taxes'), taxes, false)}
        {multi('terminals', t('items.terminals'), terminals, false)}
      </div>

      <fieldset className="form-section">
        <legend>{t('items.storesSection')}</legend>
        <div className="table-scroll">
          <table className="table table-compact item-stores">
            <thead>
              <tr>
                <th scope="col">{t('common.store')}</th>
                <th scope="col">{t('items.stock')}</th>
                <th scope="col">{t('items.location')}</th>
                <th scope="col">{t('items.reOrderLevel')}</th>
                <th scope="col">{t('items.reOrderQuantity')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('common.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {storeRows.fields.map((row, i) => (
                <tr key={row.id}>
                  <td>
                    <FormSelect control={control} name={`stores.${i}.store`} aria-label={t('items.storeN', { n: i + 1 })} placeholder={t('common.choose')} options={stores} />
                  </td>
                  <td>
                    <NumberInput aria-label={t('items.stockN', { n: i + 1 })} error={e.stores?.[i]?.quantity?.message} {...register(`stores.${i}.quantity`)} />
                  </td>
                  <td>
                    <Input aria-label={t('items.locationN', { n: i + 1 })} {...register(`stores.${i}.location`)} />
                  </td>
                  <td>
                    <NumberInput aria-label={t('items.reOrderLevelN', { n: i + 1 })} error={e.stores?.[i]?.reOrderLevel?.message} {...register(`stores.${i}.reOrderLevel`)} />
                  </td>
                  <td>
                    <NumberInput allowDecimal={false} aria-label={t('items.reOrderQuantityN', { n: i + 1 })} error={e.stores?.[i]?.reOrderQuantity?.message} {...register(`stores.${i}.reOrderQuantity`)} />
                  </td>
                  <td>
                    <Button size="sm" variant="ghost" aria-label={t('items.removeStoreN', { n: i + 1 })} onClick={() => storeRows.remove(i)}>
                      ×
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {(e.stores?.root?.message ?? e.stores?.message) && (
          <p className="field-error" role="alert">
            {e.stores?.root?.message ?? e.stores?.message}
          </p>
        )}
        <Button size="sm" variant="secondary" onClick={() => storeRows.append({ store: '', quantity: '0', location: '', reOrderLevel: '', reOrderQuantity: '' })}>
          <span aria-hidden="true">+</span> {t('items.addStore')}
        </Button>
      </fieldset>

      <fieldset className="form-section">
        <legend>{t('items.variants')}</legend>
        {!product ? (
          <>
            <Controller
              control={control}
              name="groups"
              render={({ field }) => <VariantGroups groups={field.value as VariantGroup[]} onChange={field.onChange} />}
            />
            {preview.length > 0 && (
              <table className="table table-compact" aria-label={t('items.generatedVariants')}>
                <thead>
                  <tr>
                    <th scope="col">{t('items.variant')}</th>
                    <th scope="col">{t('items.barcode')}</th>
                    <th scope="col">{t('items.price')}</th>
                    <th scope="col">{t('items.stock')}</th>
                  </tr>
                </thead>
                <tbody>
                  {preview.map((v) => (
                    <tr key={v.attributeValue}>
                      <td>{v.attributeValue}</td>
                      <td>{v.barcode}</td>
                      <td>{v.price}</td>
                      <td>{v.quantity}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </>
        ) : (
          <>
            <table className="table table-compact">
              <thead>
                <tr>
                  <th scope="col">{t('items.variant')}</th>
                  <th scope="col">{t('items.barcode')}</th>
                  <th scope="col">{t('items.price')}</th>
                  <th scope="col">{t('items.stock')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t('common.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {variantRows.fields.map((row, i) => (
                  <tr key={row.id}>
                    <td>
                      <Input aria-label={t('items.variantN', { n: i + 1 })} {...register(`variants.${i}.attributeValue`)} />
                    </td>
                    <td>
                      <Input aria-label={t('items.variantBarcodeN', { n: i + 1 })} {...register(`variants.${i}.barcode`)} />
                    </td>
                    <td>
                      <MoneyInput aria-label={t('items.variantPriceN', { n: i + 1 })} placeholder={basePrice} {...register(`variants.${i}.price`)} />
                    </td>
                    <td>
                      <NumberInput aria-label={t('items.variantStockN', { n: i + 1 })} aria-describedby={row.byStore?.length ? `variant-by-store-${i} variant-transfer-hint` : undefined} {...register(`variants.${i}.quantity`)} />
                      {!!row.byStore?.length && (
                        <small id={`variant-by-store-${i}`} className="text-muted">
                          {t('items.variantByStore', { list: row.byStore.map((x) => `${x.name} ${x.quantity}`).join(' · ') })}
                        </small>
                      )}
                    </td>
                    <td>
                      {!row.iri && (
                        <Button size="sm" variant="ghost" aria-label={t('items.removeVariantN', { n: i + 1 })} onClick={() => variantRows.remove(i)}>
                          ×
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {variantRows.fields.some((row) => row.byStore?.length) && (
              <p id="variant-transfer-hint" className="text-muted">
                <small>{t('items.variantTransferHint')}</small>
              </p>
            )}
            <Button size="sm" variant="secondary" onClick={() => variantRows.append(newVariantRow())}>
              <span aria-hidden="true">+</span> {t('items.addVariant')}
            </Button>
          </>
        )}
        {(e.variants?.root?.message ?? e.variants?.message) && (
          <p className="field-error" role="alert">
            {e.variants?.root?.message ?? e.variants?.message}
          </p>
        )}
      </fieldset>

      <fieldset className="form-section">
        <legend>{t('items.priceRules')}</legend>
        {priceRows.fields.length > 0 && (
          <table className="table table-compact">
            <thead>
              <tr>
                <th scope="col">{t('items.price')}</th>
                <th scope="col">{t('items.ruleDate')}</th>
                <th scope="col">{t('items.ruleDay')}</th>
                <th scope="col">{t('items.ruleWeek')}</th>
                <th scope="col">{t('items.ruleMonth')}</th>
                <th scope="col">{t('items.ruleQuarter')}</th>
                <th scope="col">{t('items.ruleTime')}</th>
                <th scope="col">{t('items.ruleTimeTo')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('common.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {priceRows.fields.map((row, i) => {
                const pe = e.prices?.[i];
                return (
                  <tr key={row.id}>
                    <td>
                      <MoneyInput aria-label={t('items.rulePriceN', { n: i + 1 })} error={pe?.basePrice?.message} {...register(`prices.${i}.basePrice`)} />
                    </td>
                    <td>
                      <NumberInput allowDecimal={false} aria-label={t('items.ruleDate')} error={pe?.date?.message} {...register(`prices.${i}.date`)} />
                    </td>
                    <td>
                      <Select
                        aria-label={t('items.ruleDay')}
                        placeholder="—"
                        options={WEEKDAYS.map((d) => ({ value: d, label: t(`weekdays.${d}`) }))}
                        {...register(`prices.${i}.day`)}
                      />
                    </td>
                    <td>
                      <NumberInput allowDecimal={false} aria-label={t('items.ruleWeek')} error={pe?.week?.message} {...register(`prices.${i}.week`)} />
                    </td>
                    <td>
                      <NumberInput allowDecimal={false} aria-label={t('items.ruleMonth')} error={pe?.month?.message} {...register(`prices.${i}.month`)} />
                    </td>
                    <td>
                      <NumberInput allowDecimal={false} aria-label={t('items.ruleQuarter')} error={pe?.quarter?.message} {...register(`prices.${i}.quarter`)} />
                    </td>
                    <td>
                      <Input type="time" aria-label={t('items.ruleTime')} {...register(`prices.${i}.time`)} />
                    </td>
                    <td>
                      <Input type="time" aria-label={t('items.ruleTimeTo')} {...register(`prices.${i}.timeTo`)} />
                    </td>
                    <td>
                      <Button size="sm" variant="ghost" aria-label={t('items.removeRuleN', { n: i + 1 })} onClick={() => priceRows.remove(i)}>
                        ×
                      </Button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
        <Button size="sm" variant="secondary" onClick={() => priceRows.append(emptyPriceRule())}>
          <span aria-hidden="true">+</span> {t('items.addPriceRule')}
        </Button>
      </fieldset>
    </FormDialog>
  );
}
