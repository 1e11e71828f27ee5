import { describe, expect, it } from 'vitest';
import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Dialog } from '@/components/ui/dialog';
import { printReceipt } from '@/features/receipt/print-receipt';
import { restoreFocus } from './focus.ts';

/** A screen with a home control (the scan box) and a dialog that opens by itself, as "Start day" does. */
function Screen() {
  const [open, setOpen] = useState(true);
  return (
    <>
      <input aria-label="Scan" data-focus-home />
      <button type="button">Other</button>
      <Dialog open={open} closable={false} title="Start day">
        <button type="button" onClick={() => setOpen(false)}>Start</button>
      </Dialog>
    </>
  );
}

describe('focus is never lost (issue 29.1)', () => {
  it('a dialog that opened by itself hands focus to the home control when it closes, not to <body>', async () => {
    render(<Screen />);
    expect(screen.getByRole('button', { name: 'Start' })).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Start' }));
    expect(screen.getByLabelText('Scan')).toHaveFocus();
  });

  it('goes back to the control that had it when it is still there', () => {
    render(<Screen />);
    const other = screen.getByRole('button', { name: 'Other' });
    restoreFocus(other);
    expect(other).toHaveFocus();
    const gone = document.createElement('button');
    restoreFocus(gone);
    expect(screen.getByLabelText('Scan')).toHaveFocus();
    // A button disabled meanwhile (Done, once the cart is empty) cannot hold focus: the scan box takes it.
    other.focus();
    (other as HTMLButtonElement).disabled = true;
    restoreFocus(other);
    expect(screen.getByLabelText('Scan')).toHaveFocus();
  });

  it('printing a receipt through the browser gives focus back to where it was', () => {
    render(<Screen />);
    const other = screen.getByRole('button', { name: 'Other' });
    other.focus();
    const node = document.createElement('div');
    node.textContent = 'Receipt';
    printReceipt(node);
    expect(other).toHaveFocus();
  });
});
