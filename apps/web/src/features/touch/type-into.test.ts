import { describe, expect, it } from 'vitest';
import { acceptsDecimal, deleteBackward, insertText, keyboardKindOf } from './type-into';

const input = (attrs: Record<string, string> = {}) => {
  const el = document.createElement('input');
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
};

describe('type-into', () => {
  it('picks the keyboard by field', () => {
    expect(keyboardKindOf(input())).toBe('text');
    expect(keyboardKindOf(input({ type: 'password' }))).toBe('text');
    expect(keyboardKindOf(input({ inputmode: 'decimal' }))).toBe('digits');
    expect(keyboardKindOf(input({ type: 'number' }))).toBe('digits');
    expect(keyboardKindOf(input({ type: 'checkbox' }))).toBeNull();
    expect(keyboardKindOf(input({ type: 'datetime-local' }))).toBeNull();
    expect(keyboardKindOf(input({ readonly: '' }))).toBeNull();
    expect(keyboardKindOf(input({ 'data-touch-keyboard': 'off' }))).toBeNull();
    expect(keyboardKindOf(document.createElement('textarea'))).toBe('text');
    expect(keyboardKindOf(document.createElement('button'))).toBeNull();
    expect(acceptsDecimal(input({ inputmode: 'numeric' }))).toBe(false);
    expect(acceptsDecimal(input({ inputmode: 'decimal' }))).toBe(true);
  });

  it('inserts at the caret, replaces the selection, respects maxlength, and fires input', () => {
    const el = input({ maxlength: '6' });
    el.value = 'abcd';
    let events = 0;
    el.addEventListener('input', () => events++);
    el.setSelectionRange(1, 3);
    insertText(el, 'X');
    expect(el.value).toBe('aXd');
    expect(el.selectionStart).toBe(2);
    insertText(el, '12345');
    expect(el.value).toBe('aX123d');
    deleteBackward(el);
    expect(el.value).toBe('aX12d');
    expect(events).toBe(3);
  });
});
