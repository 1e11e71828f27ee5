import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Option } from '../hooks/use-options.ts';

export interface MultiSelectProps {
  label: string;
  options: readonly Option[];
  value: readonly string[];
  onChange: (value: string[]) => void;
  error?: string | null;
  required?: boolean;
  /** A filter box shows above the list once there are more options than this. */
  filterAbove?: number;
  name?: string;
  disabled?: boolean;
}

/** A labelled group of checkboxes with an optional filter: stores, roles, categories, products… */
export function MultiSelect({ label, options, value, onChange, error, required, filterAbove = 8, name, disabled }: MultiSelectProps) {
  const { t } = useTranslation('backoffice');
  const id = useId();
  const [q, setQ] = useState('');
  const shown = useMemo(() => {
    const needle = q.trim().toLowerCase();
    return needle ? options.filter((o) => o.label.toLowerCase().includes(needle)) : options;
  }, [options, q]);
  const toggle = (v: string, on: boolean) => onChange(on ? [...value.filter((x) => x !== v), v] : value.filter((x) => x !== v));

  return (
    <fieldset
      className={['field', 'multi-select', error && 'field-invalid'].filter(Boolean).join(' ')}
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? `${id}-error` : undefined}
      disabled={disabled}
    >
      <legend className="field-label">
        {label}
        {required && <span aria-hidden="true" className="field-required"> *</span>}
        {value.length > 0 && <span className="badge">{value.length}</span>}
      </legend>
      {options.length > filterAbove && (
        <input
          type="search"
          className="input input-sm"
          aria-label={t('common.filterLabel', { label })}
          placeholder={t('common.filter')}
          value={q}
          onChange={(e) => setQ(e.target.value)}
        />
      )}
      <div className="multi-select__options">
        {shown.map((o) => (
          <label key={o.value} className="checkbox">
            <input type="checkbox" name={name} value={o.value} checked={value.includes(o.value)} onChange={(e) => toggle(o.value, e.target.checked)} />{' '}
            {o.label}
          </label>
        ))}
        {shown.length === 0 && <span className="muted">{t('list.empty')}</span>}
      </div>
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
