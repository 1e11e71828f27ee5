import { useEffect, useId, useRef, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label?: ReactNode;
  /** "Some selected" state (select-all of a table); shown as a dash, aria-checked="mixed". */
  indeterminate?: boolean;
  error?: string | null;
  ref?: Ref<HTMLInputElement>;
}

export function Checkbox({ label, indeterminate = false, error, id, className, ref, ...rest }: CheckboxProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const inner = useRef<HTMLInputElement | null>(null);

  useEffect(() => {
    if (inner.current) inner.current.indeterminate = indeterminate;
  }, [indeterminate]);

  return (
    <div className={['checkbox', className].filter(Boolean).join(' ')}>
      <input
        id={inputId}
        type="checkbox"
        ref={(node) => {
          inner.current = node;
          if (node) node.indeterminate = indeterminate;
          if (typeof ref === 'function') ref(node);
          else if (ref) ref.current = node;
        }}
        aria-checked={indeterminate ? 'mixed' : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${inputId}-error` : undefined}
        {...rest}
      />
      {label != null && <label htmlFor={inputId}>{label}</label>}
      {error && <p id={`${inputId}-error`} className="field-error" role="alert">{error}</p>}
    </div>
  );
}
