import { useId, useRef, useState, type ChangeEvent, type InputHTMLAttributes, type MouseEvent, type FocusEvent, type ReactNode, type Ref } from 'react';
import { Field, describedBy } from './field';

export interface NumberInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'size' | 'value' | 'defaultValue'> {
  label?: ReactNode;
  error?: string | null;
  hint?: ReactNode;
  value?: string | number;
  defaultValue?: string | number;
  /** Allow one leading minus sign. */
  allowNegative?: boolean;
  /** Allow one decimal separator (default true). */
  allowDecimal?: boolean;
  /** At most this many digits after the separator (money: the currency's digits; 0 = none). */
  decimals?: number;
  /** The separator shown (money: the locale's, e.g. ',' in de-DE); '.' ',' and '٫' are all typed as it. */
  decimalSeparator?: string;
  /** Called with the accepted text and its number (null while empty or "-" / "."). */
  onValueChange?: (text: string, value: number | null) => void;
  /**
   * Said (as the field's error) when a keystroke is refused only because it has more decimals than
   * `decimals` (money: "USD takes at most 2 decimals"); without it such a keystroke is refused silently.
   */
  decimalsMessage?: string;
  /** Select the whole value on focus as well as on click (till fields). Default true. */
  selectOnFocus?: boolean;
  containerClassName?: string;
  ref?: Ref<HTMLInputElement>;
}

const ARABIC_DIGITS = /[\u0660-\u0669\u06F0-\u06F9]/g;

/** Arabic-Indic digits become 0-9 and ',' or the Arabic decimal separator become '.'. */
export function normaliseNumberText(text: string): string {
  return text
    .replace(ARABIC_DIGITS, (d) => String((d.charCodeAt(0) & 0xf) % 10))
    .replace(/[,\u066B]/g, '.');
}

export function isAcceptedNumberText(text: string, allowNegative: boolean, allowDecimal: boolean, decimals?: number): boolean {
  const fraction = decimals === undefined ? '\\d*' : `\\d{0,${decimals}}`;
  const pattern = new RegExp(`^${allowNegative ? '-?' : ''}\\d*${allowDecimal && decimals !== 0 ? `(\\.${fraction})?` : ''}$`);
  return pattern.test(text);
}

export function parseNumberText(text: string): number | null {
  if (text === '' || text === '-' || text === '.' || text === '-.') return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/**
 * A text input that accepts only digits, one decimal separator and (optionally) a leading minus.
 * Anything else is refused at the keystroke; the value stays a string so no float rounding happens here.
 */
export function NumberInput({
  label, error, hint, id, className, containerClassName, required, allowNegative = false, allowDecimal = true, decimals,
  decimalSeparator = '.', decimalsMessage, onValueChange, onChange, onClick, onFocus, selectOnFocus = true, value, defaultValue, ...rest
}: NumberInputProps) {
  const autoId = useId();
  const [refused, setRefused] = useState(false);
  const inputId = id ?? autoId;
  const lastAccepted = useRef(String(value ?? defaultValue ?? ''));
  if (value !== undefined) lastAccepted.current = String(value);

  function handleChange(event: ChangeEvent<HTMLInputElement>) {
    const plain = normaliseNumberText(event.target.value);
    if (!isAcceptedNumberText(plain, allowNegative, allowDecimal, decimals)) {
      // Too many decimals (the number is fine otherwise): say why, so the cashier is not left guessing.
      setRefused(decimals !== undefined && isAcceptedNumberText(plain, allowNegative, allowDecimal, undefined) && /\./.test(plain));
      event.target.value = lastAccepted.current; // refuse the keystroke (uncontrolled use)
      return;
    }
    setRefused(false);
    const text = decimalSeparator === '.' ? plain : plain.replace('.', decimalSeparator);
    if (text !== event.target.value) event.target.value = text;
    lastAccepted.current = text;
    onChange?.(event);
    onValueChange?.(text, parseNumberText(plain));
  }

  return (
    <Field id={inputId} label={label} error={error || (refused && decimalsMessage) || null} hint={hint} required={required} className={containerClassName}>
      <input
        id={inputId}
        type="text"
        inputMode={allowDecimal && decimals !== 0 ? 'decimal' : 'numeric'}
        autoComplete="off"
        className={['input', 'input-number', className].filter(Boolean).join(' ')}
        aria-invalid={error || (refused && decimalsMessage) ? true : undefined}
        aria-describedby={describedBy(inputId, error || (refused && decimalsMessage) || null, hint)}
        required={required}
        value={value}
        defaultValue={defaultValue}
        onChange={handleChange}
        onClick={(e: MouseEvent<HTMLInputElement>) => {
          e.currentTarget.select();
          onClick?.(e);
        }}
        onFocus={(e: FocusEvent<HTMLInputElement>) => {
          if (selectOnFocus) e.currentTarget.select();
          onFocus?.(e);
        }}
        {...rest}
      />
    </Field>
  );
}
