import type { ReactNode } from 'react';

export interface FieldProps {
  id: string;
  label?: ReactNode;
  error?: string | null;
  hint?: ReactNode;
  required?: boolean;
  className?: string;
  children: ReactNode;
}

/** Label above, control, then the error (role="alert") or a hint under the field. Used by every input. */
export function Field({ id, label, error, hint, required, className, children }: FieldProps) {
  return (
    <div className={['field', error && 'field-invalid', className].filter(Boolean).join(' ')}>
      {label != null && (
        <label htmlFor={id} className="field-label">
          {label}
          {required && <span aria-hidden="true" className="field-required"> *</span>}
        </label>
      )}
      {children}
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert">{error}</p>
      ) : hint ? (
        <p id={`${id}-hint`} className="field-hint">{hint}</p>
      ) : null}
    </div>
  );
}

export const describedBy = (id: string, error?: string | null, hint?: ReactNode) =>
  error ? `${id}-error` : hint ? `${id}-hint` : undefined;
