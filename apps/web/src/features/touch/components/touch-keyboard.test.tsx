import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { Input } from '@/components/ui/input';
import { NumberInput } from '@/components/ui/number-input';
import { setLanguage } from '@/lib/i18n';
import { renderWithProviders } from '@/test/render';
import { TouchKeyboard } from './touch-keyboard';

afterEach(async () => {
  await act(() => setLanguage('en'));
  localStorage.clear();
});

const keyboard = () => screen.getByRole('group', { name: 'On-screen keyboard' });
const key = (name: string) => within(keyboard()).getByRole('button', { name });

function RegisteredForm({ onSubmit }: { onSubmit: (v: { name: string }) => void }) {
  const { register, handleSubmit } = useForm({ defaultValues: { name: '' } });
  return (
    <form onSubmit={handleSubmit(onSubmit)}>
      <Input label="Name" {...register('name')} />
      <button type="submit">Save</button>
    </form>
  );
}

function ControlledQuantity({ onSubmit }: { onSubmit: (q: string) => void }) {
  const [quantity, setQuantity] = useState('1');
  return (
    <form onSubmit={(e) => { e.preventDefault(); onSubmit(quantity); }}>
      <NumberInput label="Quantity" value={quantity} onValueChange={(v) => setQuantity(v)} />
      <output data-testid="state">{quantity}</output>
      <button type="submit">Add</button>
    </form>
  );
}

describe('TouchKeyboard', () => {
  it('does nothing while touch mode is off', async () => {
    renderWithProviders(<><TouchKeyboard enabled={false} /><RegisteredForm onSubmit={() => {}} /></>);
    await userEvent.setup().click(screen.getByLabelText('Name'));
    expect(document.documentElement).not.toHaveClass('touch');
    expect(screen.queryByRole('group', { name: 'On-screen keyboard' })).not.toBeInTheDocument();
  });

  it('types into a react-hook-form field through its keys, keeping the focus there', async () => {
    const onSubmit = vi.fn();
    const { unmount } = renderWithProviders(<><TouchKeyboard enabled /><RegisteredForm onSubmit={onSubmit} /></>);
    expect(document.documentElement).toHaveClass('touch');
    const user = userEvent.setup();
    const field = screen.getByLabelText('Name');
    await user.click(field);
    expect(keyboard()).toHaveAttribute('data-layout', 'latin');
    await user.click(key('Shift'));
    expect(key('Shift')).toHaveAttribute('aria-pressed', 'true');
    for (const k of ['A', 'l', 'i']) await user.click(key(k)); // Shift lasts one letter
    await user.click(key('Space'));
    await user.click(key('b'));
    await user.click(key('x'));
    await user.click(key('Backspace'));
    expect(field).toHaveValue('Ali b');
    expect(field).toHaveFocus();
    await user.click(key('Enter'));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ name: 'Ali b' }, expect.anything()));
    unmount();
    expect(document.documentElement).not.toHaveClass('touch');
  });

  it('opens the digits pad for a number field; a controlled value follows, select-all is overwritten', async () => {
    const onSubmit = vi.fn();
    renderWithProviders(<><TouchKeyboard enabled /><ControlledQuantity onSubmit={onSubmit} /></>);
    const user = userEvent.setup();
    await user.click(screen.getByLabelText('Quantity')); // NumberInput selects its text on click
    expect(keyboard()).toHaveAttribute('data-layout', 'digits');
    expect(within(keyboard()).queryByRole('button', { name: 'q' })).not.toBeInTheDocument();
    await user.click(key('3'));
    await user.click(key('.'));
    await user.click(key('5'));
    expect(screen.getByTestId('state')).toHaveTextContent('3.5');
    await user.click(key('.')); // a second separator is refused by NumberInput
    expect(screen.getByLabelText('Quantity')).toHaveValue('3.5');
    await user.click(key('Clear'));
    await user.click(key('7'));
    await user.click(key('Enter'));
    expect(onSubmit).toHaveBeenCalledWith('7');
  });

  it('offers the Arabic layout in Arabic, and Latin letters on demand', async () => {
    await act(() => setLanguage('ar'));
    renderWithProviders(<><TouchKeyboard enabled /><RegisteredForm onSubmit={() => {}} /></>);
    const user = userEvent.setup();
    const field = screen.getByLabelText('Name');
    await user.click(field);
    const pad = screen.getByRole('group', { name: 'لوحة المفاتيح على الشاشة' });
    expect(pad).toHaveAttribute('data-layout', 'arabic');
    expect(pad).toHaveAttribute('dir', 'rtl');
    await user.click(within(pad).getByRole('button', { name: 'س' }));
    await user.click(within(pad).getByRole('button', { name: 'ل' }));
    await user.click(within(pad).getByRole('button', { name: 'أحرف إنجليزية' }));
    expect(pad).toHaveAttribute('data-layout', 'latin');
    await user.click(within(pad).getByRole('button', { name: 'k' }));
    expect(field).toHaveValue('سلk');
  });

  it('serves once when several screens mount it', async () => {
    const { unmount } = renderWithProviders(<><TouchKeyboard enabled /><TouchKeyboard enabled /><RegisteredForm onSubmit={() => {}} /></>);
    await userEvent.setup().click(screen.getByLabelText('Name'));
    expect(screen.getAllByRole('group', { name: 'On-screen keyboard' })).toHaveLength(1);
    unmount();
    expect(document.documentElement).not.toHaveClass('touch');
  });

  it('hides on demand and comes back when the field is tapped again; leaves with the focus', async () => {
    renderWithProviders(<><TouchKeyboard enabled /><RegisteredForm onSubmit={() => {}} /></>);
    const user = userEvent.setup();
    const field = screen.getByLabelText('Name');
    await user.click(field);
    await user.click(key('Hide keyboard'));
    expect(screen.queryByRole('group', { name: 'On-screen keyboard' })).not.toBeInTheDocument();
    expect(field).toHaveFocus();
    await user.click(field);
    expect(keyboard()).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('group', { name: 'On-screen keyboard' })).not.toBeInTheDocument());
  });
});
