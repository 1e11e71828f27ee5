import { useTranslation } from 'react-i18next';
import { normaliseNumberText, NumberInput, type NumberInputProps } from './number-input';
import { useMoney } from '@/lib/money';

/**
 * An amount in the current store's currency (issue 19): exactly the currency's decimals (USD 2,
 * JPY 0, KWD 3), the locale's decimal separator, Arabic-Indic digits typed on an Arabic keyboard
 * taken as 0-9; a keystroke with more decimals is refused with a message naming the currency.
 * The text keeps the locale's separator: read it with `moneyText()` (the wire's '.' form).
 */
export function MoneyInput(props: Omit<NumberInputProps, 'decimals' | 'decimalSeparator' | 'decimalsMessage'>) {
  const money = useMoney();
  const { t } = useTranslation('common');
  const message = money.digits === 0
    ? t('money.noDecimals', { currency: money.currency })
    : t('money.tooManyDecimals', { currency: money.currency, count: money.digits });
  return <NumberInput {...props} decimals={money.digits} decimalSeparator={money.separator} decimalsMessage={message} />;
}

/** A money input's text in the wire's form: digits 0-9 and '.' as the separator ("10,50" -> "10.50"). */
export const moneyText = (text: string): string => normaliseNumberText(text.trim());
