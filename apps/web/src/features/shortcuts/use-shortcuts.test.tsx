import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render } from '@testing-library/react';
import { useShortcuts, type ShortcutHandlers } from './use-shortcuts';

function Harness({ handlers, enabled = true, dialog = false }: { handlers: ShortcutHandlers; enabled?: boolean; dialog?: boolean }) {
  useShortcuts(handlers, enabled);
  return (
    <div>
      <input aria-label="field" />
      {dialog && <div role="dialog" aria-modal="true">open</div>}
    </div>
  );
}

afterEach(() => document.body.focus());

describe('useShortcuts', () => {
  it('runs the handler of a combination and prevents the browser default', () => {
    const itemSearch = vi.fn();
    render(<Harness handlers={{ itemSearch }} />);
    const event = new KeyboardEvent('keydown', { key: 'f', code: 'KeyF', ctrlKey: true, bubbles: true, cancelable: true });
    window.dispatchEvent(event);
    expect(itemSearch).toHaveBeenCalledTimes(1);
    expect(event.defaultPrevented).toBe(true);
  });

  it('is ignored while a dialog is open or when shortcuts are off', () => {
    const help = vi.fn();
    const { rerender } = render(<Harness handlers={{ help }} dialog />);
    fireEvent.keyDown(window, { key: '?', shiftKey: true });
    expect(help).not.toHaveBeenCalled();
    rerender(<Harness handlers={{ help }} enabled={false} />);
    fireEvent.keyDown(window, { key: '?', shiftKey: true });
    expect(help).not.toHaveBeenCalled();
    rerender(<Harness handlers={{ help }} />);
    fireEvent.keyDown(window, { key: '?', shiftKey: true });
    expect(help).toHaveBeenCalledTimes(1);
  });

  it('leaves plain keys to a focused field but not ctrl+s; F3 falls back to the / handler', () => {
    const removeLine = vi.fn();
    const settle = vi.fn();
    const focusSearch = vi.fn();
    const { getByLabelText } = render(<Harness handlers={{ removeLine, settle, focusSearch }} />);
    const field = getByLabelText('field');
    field.focus();
    fireEvent.keyDown(field, { key: 'Delete' });
    expect(removeLine).not.toHaveBeenCalled();
    fireEvent.keyDown(field, { key: 's', code: 'KeyS', ctrlKey: true });
    expect(settle).toHaveBeenCalled();
    fireEvent.keyDown(field, { key: 'F3' });
    expect(focusSearch).toHaveBeenCalled();
  });

  it('alt+p+index picks the payment type at that index', () => {
    const paymentType = vi.fn();
    render(<Harness handlers={{ paymentType }} />);
    fireEvent.keyDown(window, { key: 'p', code: 'KeyP', altKey: true });
    fireEvent.keyDown(window, { key: '3', code: 'Digit3', altKey: true });
    expect(paymentType).toHaveBeenCalledWith(2);
    fireEvent.keyUp(window, { key: 'p', code: 'KeyP', altKey: true });
    fireEvent.keyDown(window, { key: '1', code: 'Digit1', altKey: true });
    expect(paymentType).toHaveBeenCalledTimes(1);
  });
});
