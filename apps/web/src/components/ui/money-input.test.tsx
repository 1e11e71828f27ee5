import { afterEach, describe, expect, it } from 'vitest';
import { useState } from 'react';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@/test/render';
import { endSession, startSession, type Store } from '@/lib/session';
import { expenseSchema } from '@/features/expenses/lib/expense-schema';
import { cleanNumber } from '@/features/inventory/lib/lines';
import { itemDefaults, itemPayload } from '@/features/items/lib/item-schema';
import { MoneyInput, moneyText } from './money-input';

function inStore(settings: Partial<Store>) {
  const store: Store = { id: 1, name: 'Shop', terminals: [{ id: 7, code: 'T1' }], ...settings };
  act(() => startSession({ id: 1, username: 'c', displayName: 'C', roles: ['ROLE_USER'], stores: [store] }, { restore: false }));
}

function Amount() {
  const [text, setText] = useState('');
  return <MoneyInput label="Amount" value={text} onValueChange={(v) => setText(v)} />;
}

afterEach(() => act(() => endSession()));

describe('MoneyInput (issue 19): exactly the currency\'s decimals, the locale\'s separator', () => {
  it('USD: a third decimal is refused with a message naming the currency', async () => {
    inStore({ currency: 'USD', locale: 'en-US' });
    renderWithProviders(<Amount />);
    const input = screen.getByLabelText('Amount');
    await userEvent.type(input, '10.755');
    expect(input).toHaveValue('10.75');
    expect(screen.getByRole('alert')).toHaveTextContent('USD amounts have at most 2 decimals');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    await userEvent.type(input, '{Backspace}');
    expect(screen.queryByRole('alert')).toBeNull(); // the next accepted keystroke clears it
  });

  it('JPY: no decimals at all', async () => {
    inStore({ currency: 'JPY', locale: 'ja-JP' });
    renderWithProviders(<Amount />);
    const input = screen.getByLabelText('Amount');
    await userEvent.type(input, '500.');
    expect(input).toHaveValue('500');
    expect(screen.getByRole('alert')).toHaveTextContent('JPY amounts have no decimals');
  });

  it('KWD: three decimals', async () => {
    inStore({ currency: 'KWD', locale: 'en-US' });
    renderWithProviders(<Amount />);
    const input = screen.getByLabelText('Amount');
    await userEvent.type(input, '1.2345');
    expect(input).toHaveValue('1.234');
    expect(screen.getByRole('alert')).toHaveTextContent('KWD amounts have at most 3 decimals');
  });

  it('EUR in de-DE: the comma; Arabic-Indic digits typed on an Arabic keyboard are read as digits', async () => {
    inStore({ currency: 'EUR', locale: 'de-DE' });
    renderWithProviders(<Amount />);
    const input = screen.getByLabelText('Amount');
    await userEvent.type(input, '12.5');
    expect(input).toHaveValue('12,5');
    await userEvent.clear(input);
    await userEvent.type(input, '١٢٫٥٠');
    expect(input).toHaveValue('12,50');
    expect(moneyText('12,50')).toBe('12.50');
  });

  it('the forms send the wire\'s form: expenses, purchases and supplier payments', () => {
    expect(expenseSchema.parse({ description: 'Tea', amount: '١٢٫٥٠' }).amount).toBe('12.50');
    expect(expenseSchema.parse({ description: 'Tea', amount: '12,5' }).amount).toBe('12.5');
    expect(expenseSchema.safeParse({ description: 'Tea', amount: '12,5,0' }).success).toBe(false);
    expect(cleanNumber('٧٫٢٥')).toBe('7.25');
    expect(cleanNumber('7,')).toBe('7');
    const item = itemPayload({ ...itemDefaults(null, 1), name: 'Tea', basePrice: '10,75', cost: '٥٫٥٠' }, null);
    expect([item.basePrice, item.cost]).toEqual(['10.75', '5.50']);
  });
});
