import type { KeyboardEvent, ReactNode } from 'react';

/**
 * The list half of an ARIA combobox (WAI-ARIA APG "combobox with listbox popup"): the input keeps
 * the focus and carries role=combobox, aria-expanded, aria-controls and aria-activedescendant
 * (`comboboxProps`); the options are a listbox under it. A tap on an option picks it without taking
 * the focus from the input (mousedown is cancelled).
 */
export interface ComboOption {
  key: string | number;
  content: ReactNode;
}

export const optionId = (listId: string, index: number) => `${listId}-opt-${index}`;

/** The input's ARIA attributes for a list that is `open`, with `active` (-1: none) highlighted. */
export function comboboxProps(listId: string, open: boolean, active: number) {
  return {
    role: 'combobox' as const,
    'aria-autocomplete': 'list' as const,
    'aria-expanded': open,
    'aria-controls': listId,
    'aria-activedescendant': open && active >= 0 ? optionId(listId, active) : undefined,
  };
}

/**
 * Arrow keys on the input: Down/Up move the highlight through `count` options (wrapping), Home/End
 * are left to the text. Returns the new index, or null when the key is not the list's.
 */
export function moveHighlight(e: KeyboardEvent<HTMLInputElement>, active: number, count: number): number | null {
  if (!count) return null;
  if (e.key === 'ArrowDown') return active + 1 >= count ? 0 : active + 1;
  if (e.key === 'ArrowUp') return active <= 0 ? count - 1 : active - 1;
  return null;
}

export interface ComboListboxProps {
  id: string;
  label: string;
  options: readonly ComboOption[];
  active: number;
  open: boolean;
  onPick: (index: number) => void;
  className?: string;
  /** Shown at the end of the list (e.g. "Create ..."), outside the options. */
  footer?: ReactNode;
}

export function ComboListbox({ id, label, options, active, open, onPick, className, footer }: ComboListboxProps) {
  return (
    <div className={['combo-popup', className].filter(Boolean).join(' ')} hidden={!open}>
      <ul id={id} role="listbox" aria-label={label} className="combo-list">
        {open && options.map((o, i) => (
          <li
            key={o.key}
            id={optionId(id, i)}
            role="option"
            aria-selected={i === active}
            className={i === active ? 'combo-option active' : 'combo-option'}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => onPick(i)}
          >
            {o.content}
          </li>
        ))}
      </ul>
      {open && footer}
    </div>
  );
}
