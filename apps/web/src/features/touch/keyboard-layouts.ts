/**
 * Key rows of the on-screen keyboard. Character keys type their face; the named keys act.
 * The Latin and digit layouts are never mirrored in right-to-left pages (a keypad reads the same
 * in every language); the Arabic rows follow the usual Arabic PC layout, right to left.
 */

export type KeyAction = 'backspace' | 'enter' | 'space' | 'shift' | 'layout' | 'hide' | 'clear';

export type KeyDef =
  | { kind: 'char'; value: string; wide?: boolean }
  | { kind: 'action'; action: KeyAction; wide?: boolean };

export type LayoutId = 'latin' | 'arabic' | 'digits';

const chars = (row: string, sep = ''): KeyDef[] => row.split(sep).filter(Boolean).map((value) => ({ kind: 'char', value }));
const act = (action: KeyAction, wide = false): KeyDef => ({ kind: 'action', action, wide });

const NUMBER_ROW = chars('1234567890');

export const LATIN_ROWS: KeyDef[][] = [
  NUMBER_ROW,
  chars('qwertyuiop'),
  chars('asdfghjkl'),
  [act('shift', true), ...chars('zxcvbnm'), act('backspace', true)],
  [act('layout'), ...chars('@-_'), act('space', true), ...chars('.,'), act('enter', true), act('hide')],
];

export const ARABIC_ROWS: KeyDef[][] = [
  NUMBER_ROW,
  chars('ض ص ث ق ف غ ع ه خ ح ج د', ' '),
  chars('ش س ي ب ل ا ت ن م ك ط', ' '),
  [...chars('ذ ئ ء ؤ ر لا ى ة و ز ظ', ' '), act('backspace', true)],
  [act('layout'), ...chars('أ إ آ', ' '), act('space', true), ...chars('. ،', ' '), act('enter', true), act('hide')],
];

/** The digits pad: `decimal` adds the separator key; a minus is always there (NumberInput refuses it where not allowed). */
export function digitRows(decimal: boolean): KeyDef[][] {
  return [
    chars('789'),
    chars('456'),
    chars('123'),
    [chars('-')[0], chars('0')[0], decimal ? chars('.')[0] : act('clear')],
    [act('backspace'), ...(decimal ? [act('clear')] : []), act('enter', true), act('hide')],
  ];
}

/** Upper case for Latin letters while Shift is on; other scripts have no case. */
export const shifted = (value: string, shift: boolean): string => (shift ? value.toLocaleUpperCase('en') : value);
