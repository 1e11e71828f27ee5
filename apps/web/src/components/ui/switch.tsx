import { useId, type ButtonHTMLAttributes, type ReactNode } from 'react';

export interface SwitchProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'onChange' | 'role'> {
  checked: boolean;
  onChange: (checked: boolean) => void;
  label?: ReactNode;
}

/** On/off toggle (role="switch"), e.g. settings and activation toggles. */
export function Switch({ checked, onChange, label, id, className, disabled, ...rest }: SwitchProps) {
  const autoId = useId();
  const switchId = id ?? autoId;
  return (
    <div className={['switch-field', className].filter(Boolean).join(' ')}>
      <button
        id={switchId}
        type="button"
        role="switch"
        aria-checked={checked}
        disabled={disabled}
        className="switch"
        onClick={() => onChange(!checked)}
        {...rest}
      >
        <span className="switch-thumb" aria-hidden="true" />
      </button>
      {label != null && <label htmlFor={switchId}>{label}</label>}
    </div>
  );
}
