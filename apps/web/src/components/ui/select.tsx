import { useId, type ReactNode, type Ref, type SelectHTMLAttributes } from 'react';
import { Field, describedBy } from './field';

export interface SelectOption {
  value: string;
  label: string;
  disabled?: boolean;
}

export interface SelectProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'size'> {
  label?: ReactNode;
  error?: string | null;
  hint?: ReactNode;
  options: SelectOption[];
  /** Text of an empty first option ('' value); omit for none. */
  placeholder?: string;
  containerClassName?: string;
  ref?: Ref<HTMLSelectElement>;
}

/** Native <select> with label and error: accessible, keyboard- and scanner-friendly. */
export function Select({ label, error, hint, options, placeholder, id, className, containerClassName, required, ...rest }: SelectProps) {
  const autoId = useId();
  const selectId = id ?? autoId;
  return (
    <Field id={selectId} label={label} error={error} hint={hint} required={required} className={containerClassName}>
      <select
        id={selectId}
        className={['input', 'select', className].filter(Boolean).join(' ')}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(selectId, error, hint)}
        required={required}
        {...rest}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value} disabled={o.disabled}>{o.label}</option>
        ))}
      </select>
    </Field>
  );
}
