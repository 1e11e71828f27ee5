import { describe, expect, it } from 'vitest';
import { matchShortcut, type KeyLike } from './match-shortcut';

const key = (k: string, mods: Partial<KeyLike> = {}, code?: string): KeyLike => ({ key: k, code, ctrlKey: false, shiftKey: false, altKey: false, ...mods });

describe('matchShortcut', () => {
  it.each([
    [key('?', { shiftKey: true }), 'help'],
    [key('/'), 'focusSearch'],
    [key('F3'), 'focusSearchF3'],
    [key('f', { ctrlKey: true }, 'KeyF'), 'itemSearch'],
    [key('ArrowUp', { ctrlKey: true }), 'previousLine'],
    [key('ArrowDown', { ctrlKey: true }), 'nextLine'],
    [key('ArrowLeft', { ctrlKey: true }), 'previousField'],
    [key('ArrowRight', { ctrlKey: true }), 'nextField'],
    [key('Delete'), 'removeLine'],
    [key('Enter', { ctrlKey: true }), 'focusPayment'],
    [key('s', { ctrlKey: true }, 'KeyS'), 'settle'],
    [key('x', { ctrlKey: true }, 'KeyX'), 'clear'],
    [key('e', { ctrlKey: true }, 'KeyE'), 'expenses'],
    [key('h', { ctrlKey: true }, 'KeyH'), 'history'],
    [key('Q', { ctrlKey: true, shiftKey: true }, 'KeyQ'), 'taxes'],
    [key('D', { ctrlKey: true, shiftKey: true }, 'KeyD'), 'discounts'],
    [key('C', { ctrlKey: true, shiftKey: true }, 'KeyC'), 'customers'],
    [key('S', { ctrlKey: true, shiftKey: true }, 'KeyS'), 'exactCash'],
  ])('%j -> %s', (e, id) => {
    expect(matchShortcut(e, false)?.id).toBe(id);
  });

  it('leaves plain keys to a field being typed in, but not ctrl combinations or F3', () => {
    expect(matchShortcut(key('/'), true)).toBeNull();
    expect(matchShortcut(key('Delete'), true)).toBeNull();
    expect(matchShortcut(key('s', { ctrlKey: true }, 'KeyS'), true)?.id).toBe('settle');
    expect(matchShortcut(key('F3'), true)?.id).toBe('focusSearchF3');
  });

  it('F2 quantity, F4 line discount, F8 hold, F9 held sales: also while typing in the scan box, never with a modifier (issue 29.3)', () => {
    expect(matchShortcut(key('F2'), true)?.id).toBe('quantity');
    expect(matchShortcut(key('F4'), true)?.id).toBe('lineDiscount');
    expect(matchShortcut(key('F8'), false)?.id).toBe('hold');
    expect(matchShortcut(key('F9'), true)?.id).toBe('recall');
    expect(matchShortcut(key('F4', { altKey: true }), false)).toBeNull(); // alt+F4 closes the window: not ours
    expect(matchShortcut(key('F8', { ctrlKey: true }), false)).toBeNull();
  });

  it('ctrl+shift+s (exact cash) answers to the key position: an Arabic layout sends key "س"', () => {
    expect(matchShortcut(key('س', { ctrlKey: true, shiftKey: true }, 'KeyS'), true)?.id).toBe('exactCash');
    expect(matchShortcut(key('س', { ctrlKey: true }, 'KeyS'), false)?.id).toBe('settle');
    expect(matchShortcut(key('س', { ctrlKey: true, shiftKey: true }, 'KeyA'), false)).toBeNull();
  });

  it('alt+p+index picks a payment type', () => {
    expect(matchShortcut(key('2', { altKey: true }, 'Digit2'), false, true)).toEqual({ id: 'paymentType', index: 1 });
    expect(matchShortcut(key('2', { altKey: true }, 'Digit2'), false, false)).toBeNull();
  });
});
