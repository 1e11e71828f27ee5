/**
 * Matches a keydown against the shortcuts of spec 2.5. Letters are read from `code` (KeyF) so
 * ctrl+shift+q and layouts that alter `key` (alt+p gives 'π' on a Mac) still match.
 * Plain keys (?, /, del) are ignored while typing in a field; ctrl combinations and the function
 * keys (F2 quantity, F3 search, F4 line discount, F8 hold, F9 held sales) are not,
 * so ctrl+s settles from the payment field.
 */
import type { ShortcutId } from './shortcut-list';

export interface KeyLike {
  key: string;
  code?: string;
  ctrlKey: boolean;
  metaKey?: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

export interface Match {
  id: ShortcutId;
  /** For paymentType: the 0-based index of the payment type. */
  index?: number;
}

function letter(e: KeyLike): string {
  if (e.code && /^Key[A-Z]$/.test(e.code)) return e.code.slice(3).toLowerCase();
  return e.key.length === 1 ? e.key.toLowerCase() : e.key;
}

function digit(e: KeyLike): number | null {
  if (e.code && /^(Digit|Numpad)[0-9]$/.test(e.code)) return Number(e.code.slice(-1));
  return /^[0-9]$/.test(e.key) ? Number(e.key) : null;
}

/**
 * @param editing true when focus is in a text field
 * @param pHeld true while the P key is held (alt+p+index)
 */
export function matchShortcut(e: KeyLike, editing: boolean, pHeld = false): Match | null {
  const ctrl = e.ctrlKey || !!e.metaKey;
  if (e.altKey && pHeld && !ctrl) {
    const d = digit(e);
    if (d !== null && d > 0) return { id: 'paymentType', index: d - 1 };
  }
  if (!ctrl && !e.altKey && !e.shiftKey) {
    switch (e.key) {
      case 'F2': return { id: 'quantity' };
      case 'F3': return { id: 'focusSearchF3' };
      case 'F4': return { id: 'lineDiscount' };
      case 'F8': return { id: 'hold' };
      case 'F9': return { id: 'recall' };
      default: break;
    }
  }
  if (ctrl && !e.altKey) {
    if (e.shiftKey) {
      switch (letter(e)) {
        case 'q': return { id: 'taxes' };
        case 'd': return { id: 'discounts' };
        case 'c': return { id: 'customers' };
        case 's': return { id: 'exactCash' }; // code KeyS: also 'س' on an Arabic layout
        default: return null;
      }
    }
    switch (e.key) {
      case 'ArrowUp': return { id: 'previousLine' };
      case 'ArrowDown': return { id: 'nextLine' };
      case 'ArrowLeft': return { id: 'previousField' };
      case 'ArrowRight': return { id: 'nextField' };
      case 'Enter': return { id: 'focusPayment' };
      default: break;
    }
    switch (letter(e)) {
      case 'f': return { id: 'itemSearch' };
      case 's': return { id: 'settle' };
      case 'x': return { id: 'clear' }; // the hook lets a field with selected text cut it instead
      case 'e': return { id: 'expenses' };
      case 'h': return { id: 'history' };
      default: return null;
    }
  }
  if (editing || ctrl || e.altKey) return null;
  if (e.key === '?') return { id: 'help' };
  if (e.key === '/') return { id: 'focusSearch' };
  if (e.key === 'Delete') return { id: 'removeLine' };
  return null;
}

/** True when the element takes typed text (so plain-key shortcuts stay out of its way). */
export function isEditable(el: Element | null): boolean {
  if (!el) return false;
  const tag = el.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') {
    const type = (el as HTMLInputElement).type;
    return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(type);
  }
  return (el as HTMLElement).isContentEditable === true;
}

/** A modal dialog is open: shortcuts are ignored (spec 2.5). */
export function isDialogOpen(doc: Document = document): boolean {
  return !!doc.querySelector('[role="dialog"], [role="alertdialog"], dialog[open]');
}
