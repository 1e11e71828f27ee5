import { useTranslation } from 'react-i18next';
import { useMoney } from '@/lib/money';

/** The drawer's difference from the expected cash, in words a cashier reads at a glance: over, short or balanced. */
export function overShortText(minor: number, format: (minor: number) => string, t: (key: string, opts?: Record<string, unknown>) => string) {
  if (minor === 0) return t('closing.balanced');
  return t(minor > 0 ? 'closing.over' : 'closing.short', { amount: format(Math.abs(minor)) });
}

export function OverShort({ minor }: { minor: number }) {
  const { t } = useTranslation('backoffice');
  const money = useMoney();
  const tone = minor === 0 ? 'text-success' : 'text-danger';
  return <span className={tone} data-testid="over-short">{overShortText(minor, money.formatMinor, t)}</span>;
}
