import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { renderWithProviders } from '@/test/render';
import { Checkbox } from './checkbox';
import { confirm } from './confirm-dialog';
import { Dialog } from './dialog';
import { NumberInput, normaliseNumberText } from './number-input';
import { toast } from './toast';

afterEach(() => {
  vi.useRealTimers();
  act(() => toast.dismiss());
});

describe('NumberInput', () => {
  function Controlled({ allowNegative = false }: { allowNegative?: boolean }) {
    const [value, setValue] = useState('');
    return <NumberInput label="Amount" value={value} allowNegative={allowNegative} onValueChange={setValue} />;
  }

  it('accepts digits and one decimal separator only', async () => {
    render(<Controlled />);
    const input = screen.getByLabelText('Amount');
    await userEvent.type(input, '1a2.3.4-');
    expect(input).toHaveValue('12.34');
  });

  it('accepts a leading minus when allowed', async () => {
    render(<Controlled allowNegative />);
    const input = screen.getByLabelText('Amount');
    await userEvent.type(input, '-5-');
    expect(input).toHaveValue('-5');
  });

  it('selects the whole value on click', async () => {
    render(<NumberInput label="Qty" defaultValue="125" />);
    const input = screen.getByLabelText<HTMLInputElement>('Qty');
    await userEvent.click(input);
    expect([input.selectionStart, input.selectionEnd]).toEqual([0, 3]);
  });

  it('normalises Arabic digits and separators', () => {
    expect(normaliseNumberText('١٢٫٥')).toBe('12.5');
    expect(normaliseNumberText('3,5')).toBe('3.5');
  });
});

describe('Dialog', () => {
  it('closes on Escape and from the close button when closable', async () => {
    const onClose = vi.fn();
    renderWithProviders(<Dialog open onClose={onClose} title="Customers">body</Dialog>);
    await userEvent.keyboard('{Escape}');
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('takes an Escape pressed the moment it appears, before the page has painted it', async () => {
    // A receipt opens when the sale is recorded (a promise, not a key): a cashier's Escape right
    // after Ctrl+Shift+S can arrive between the dialog's commit and React's passive effects. The
    // key is sent as soon as the dialog is in the document (a MutationObserver runs before those).
    const onClose = vi.fn();
    let open!: () => void;
    function Opener() {
      const [shown, setShown] = useState(false);
      open = () => setShown(true);
      return <Dialog open={shown} onClose={onClose} title="Receipt">body</Dialog>;
    }
    renderWithProviders(<Opener />);
    const actEnvironment = (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT;
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
    try {
      const pressed = new Promise<void>((resolve) => {
        const seen = new MutationObserver(() => {
          if (!document.querySelector('[role="dialog"]')) return;
          seen.disconnect();
          (document.activeElement ?? document.body).dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }));
          resolve();
        });
        seen.observe(document.body, { childList: true, subtree: true });
      });
      open();
      await pressed;
      await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    } finally {
      (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = actEnvironment;
    }
  });
});

describe('confirm', () => {
  it('resolves true for "Yes, please" and false for "No, wait"', async () => {
    renderWithProviders(<p>page</p>);
    const user = userEvent.setup();
    let answer: Promise<boolean>;
    act(() => {
      answer = confirm('Delete order?');
    });
    expect(await screen.findByRole('dialog', { name: 'Confirmation' })).toHaveTextContent('Delete order?');
    await user.click(screen.getByRole('button', { name: 'Yes, please' }));
    await expect(answer!).resolves.toBe(true);
    act(() => {
      answer = confirm('Restore order?');
    });
    await user.click(await screen.findByRole('button', { name: 'No, wait' }));
    await expect(answer!).resolves.toBe(false);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});

describe('toast', () => {
  it('titles with the upper-cased type, sits bottom-right and goes after 2 s', () => {
    vi.useFakeTimers();
    renderWithProviders(<p>page</p>);
    act(() => {
      toast.error('Quantity cannot be less then 1');
    });
    const item = screen.getByRole('alert');
    expect(item).toHaveTextContent('ERROR');
    expect(item).toHaveTextContent('Quantity cannot be less then 1');
    expect(item.parentElement).toHaveClass('toaster-bottom-right');
    act(() => vi.advanceTimersByTime(1999));
    expect(screen.queryByRole('alert')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('Checkbox', () => {
  it('shows the indeterminate state', () => {
    render(<Checkbox label="All" indeterminate />);
    const box = screen.getByLabelText<HTMLInputElement>('All');
    expect(box.indeterminate).toBe(true);
    expect(box).toBePartiallyChecked();
  });
});
