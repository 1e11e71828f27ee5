import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { formatMoney } from '@pos/domain/format';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import type { StoreForm } from '../lib/schemas.ts';

/** Cash rounding steps offered, in minor units of the store's currency (0 = none): 0.01 ... 10 in USD. */
export const ROUNDING_STEPS = [1, 5, 10, 25, 50, 100, 500, 1000] as const;

const supported = (key: 'currency' | 'timeZone'): string[] => {
  const f = (Intl as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf;
  return f ? f(key) : [];
};

/** The list with `current` in it (a value the runtime does not list, such as 'UTC', stays choosable). */
const withCurrent = (list: string[], current: string) => (current && !list.includes(current) ? [current, ...list] : list);

/**
 * A store's money settings (issue 19): currency, locale, time zone, cash rounding step, prices
 * include tax, legacy tax base. The server checks them again (422 naming the field).
 */
export function StoreMoneyFields({ register, errors, currency, values }: {
  register: UseFormRegister<StoreForm>;
  errors: FieldErrors<StoreForm>;
  /** The currency chosen in the form (labels the rounding steps). */
  currency: string;
  values: Pick<StoreForm, 'currency' | 'timeZone'>;
}) {
  const { t, i18n } = useTranslation('backoffice');
  const currencies = useMemo(() => withCurrent(supported('currency'), values.currency ?? ''), [values.currency]);
  const zones = useMemo(() => withCurrent(withCurrent(supported('timeZone'), 'UTC'), values.timeZone ?? ''), [values.timeZone]);
  const steps = [
    { value: '0', label: t('storeMoney.noRounding') },
    ...ROUNDING_STEPS.map((s) => ({ value: String(s), label: formatMoney(s, { currency, locale: i18n.language }) })),
  ];
  return (
    <fieldset className="form-section">
      <legend>{t('storeMoney.title')}</legend>
      <div className="form-row">
        <Select label={t('storeMoney.currency')} required error={errors.currency?.message} options={currencies.map((c) => ({ value: c, label: c }))} {...register('currency')} />
        <Input label={t('storeMoney.locale')} required hint={t('storeMoney.localeHint')} error={errors.locale?.message} {...register('locale')} />
      </div>
      <div className="form-row">
        <Select label={t('storeMoney.timeZone')} required error={errors.timeZone?.message} options={zones.map((z) => ({ value: z, label: z }))} {...register('timeZone')} />
        <Select label={t('storeMoney.cashRounding')} error={errors.cashRoundingStep?.message} options={steps} {...register('cashRoundingStep')} />
      </div>
      <Checkbox label={t('storeMoney.pricesIncludeTax')} {...register('pricesIncludeTax')} />
      <Checkbox label={t('storeMoney.legacyTaxBase')} {...register('legacyTaxBase')} />
    </fieldset>
  );
}
