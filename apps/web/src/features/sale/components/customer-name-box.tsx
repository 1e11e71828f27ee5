import { useTranslation } from 'react-i18next';
import { Input } from '@/components/ui/input';

/** The free-text customer name (optional, or required by the "Require customer name" setting). */
export function CustomerNameBox({ value, onChange, required }: { value: string; onChange: (v: string) => void; required: boolean }) {
  const { t } = useTranslation('sale');
  return (
    <Input
      label={t('customerName.label')}
      placeholder={t('customerName.placeholder')}
      value={value}
      required={required}
      maxLength={255}
      onChange={(e) => onChange(e.target.value)}
      containerClassName="customer-name-box"
    />
  );
}
