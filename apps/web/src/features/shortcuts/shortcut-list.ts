/**
 * Every keyboard shortcut of spec 2.5 with the key combination it answers to. The help modal
 * lists these; match-shortcut.ts matches key events against them.
 */
export type ShortcutId =
  | 'help'
  | 'focusSearch'
  | 'focusSearchF3'
  | 'itemSearch'
  | 'previousLine'
  | 'nextLine'
  | 'previousField'
  | 'nextField'
  | 'removeLine'
  | 'focusPayment'
  | 'settle'
  | 'exactCash'
  | 'clear'
  | 'expenses'
  | 'history'
  | 'taxes'
  | 'discounts'
  | 'customers'
  | 'paymentType'
  | 'quantity'
  | 'lineDiscount'
  | 'hold'
  | 'recall';

export interface ShortcutDef {
  id: ShortcutId;
  /** Mousetrap-style combination shown in the help list. */
  keys: string;
  /** i18n key (namespace 'sale') of the description. */
  label: string;
}

export const SHORTCUTS: ShortcutDef[] = [
  { id: 'help', keys: '?', label: 'shortcuts.help' },
  { id: 'focusSearch', keys: '/', label: 'shortcuts.focusSearch' },
  { id: 'focusSearchF3', keys: 'f3', label: 'shortcuts.focusSearch' },
  { id: 'itemSearch', keys: 'ctrl+f', label: 'shortcuts.itemSearch' },
  { id: 'previousLine', keys: 'ctrl+up', label: 'shortcuts.previousLine' },
  { id: 'nextLine', keys: 'ctrl+down', label: 'shortcuts.nextLine' },
  { id: 'previousField', keys: 'ctrl+left', label: 'shortcuts.previousField' },
  { id: 'nextField', keys: 'ctrl+right', label: 'shortcuts.nextField' },
  { id: 'removeLine', keys: 'del', label: 'shortcuts.removeLine' },
  { id: 'focusPayment', keys: 'ctrl+enter', label: 'shortcuts.focusPayment' },
  { id: 'settle', keys: 'ctrl+s', label: 'shortcuts.settle' },
  { id: 'exactCash', keys: 'ctrl+shift+s', label: 'shortcuts.exactCash' },
  { id: 'clear', keys: 'ctrl+x', label: 'shortcuts.clear' },
  { id: 'expenses', keys: 'ctrl+e', label: 'shortcuts.expenses' },
  { id: 'history', keys: 'ctrl+h', label: 'shortcuts.history' },
  { id: 'taxes', keys: 'ctrl+shift+q', label: 'shortcuts.taxes' },
  { id: 'discounts', keys: 'ctrl+shift+d', label: 'shortcuts.discounts' },
  { id: 'customers', keys: 'ctrl+shift+c', label: 'shortcuts.customers' },
  { id: 'paymentType', keys: 'alt+p+1..9', label: 'shortcuts.paymentType' },
  // Issue 29.3: function keys (no browser takes them, and they are the same on every keyboard layout).
  { id: 'quantity', keys: 'f2', label: 'shortcuts.quantity' },
  { id: 'lineDiscount', keys: 'f4', label: 'shortcuts.lineDiscount' },
  { id: 'hold', keys: 'f8', label: 'shortcuts.hold' },
  { id: 'recall', keys: 'f9', label: 'shortcuts.recall' },
];

/** The shortcut text shown on a button when "Display shortcut texts" is on. */
export function keysOf(id: ShortcutId): string {
  return SHORTCUTS.find((s) => s.id === id)?.keys ?? '';
}
