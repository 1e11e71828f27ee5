import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import { Field, describedBy } from './field';

export interface InputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'size'> {
  label?: ReactNode;
  /** Shown under the field; marks the input aria-invalid. */
  error?: string | null;
  hint?: ReactNode;
  containerClassName?: string;
  ref?: Ref<HTMLInputElement>;
}

/** Text-like input with its label and error. Works with react-hook-form's register() (ref is a prop in React 19). */
export function Input({ label, error, hint, id, className, containerClassName, required, ...rest }: InputProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  return (
    <Field id={inputId} label={label} error={error} hint={hint} required={required} className={containerClassName}>
      <input
        id={inputId}
        className={['input', className].filter(Boolean).join(' ')}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(inputId, error, hint)}
        required={required}
        {...rest}
      />
    </Field>
  );
}
