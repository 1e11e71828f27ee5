import { describe, expect, it } from 'vitest';
import { emailString, fillMessage, messages, moneyInput, requiredString } from './validation.ts';
import type { MessageKey } from './validation.ts';

describe('messages', () => {
  const cases: Array<[MessageKey, string]> = [
    ['required', 'This value should not be blank.'],
    ['notNull', 'This value should not be null.'],
    ['number', 'This value should be a valid number.'],
    ['email', 'This value is not a valid email address.'],
    ['positive', 'This value should be positive.'],
    ['positiveOrZero', 'This value should be either positive or zero.'],
    ['negative', 'This value should be negative.'],
    ['negativeOrZero', 'This value should be either negative or zero.'],
    ['isFalse', 'This value should be false.'],
    ['isTrue', 'This value should be true.'],
    ['validChoice', 'The value you selected is not a valid choice.'],
    ['between', 'This value should be between :min and :max.'],
    ['min', 'This value should be greater then :min'],
    ['max', 'This value should be less then :max'],
    ['addSomeItems', 'Please add some items'],
    ['addValidVariants', 'Please add valid variants'],
    ['addSomeStores', 'Please add some stores'],
    ['quantityBelowOne', 'Quantity cannot be less then 1'],
    ['addCustomerName', 'Add customer name'],
    ['amountZero', 'Amount cannot be zero'],
    ['exactAmountFor', 'Please add exact amount for :name'],
    ['orderNotFound', 'Order not found'],
    ['codeNotFound', ':code not found'],
    ['patternTooLong', 'Pattern length exceeds max of 32.'],
    ['initFailed', 'An error occurred while initializing application'],
  ];
  it.each(cases)('%s', (key, text) => {
    expect(messages[key]).toBe(text);
  });
});

describe('fillMessage', () => {
  it.each([
    [messages.between, { min: 1, max: 5 }, 'This value should be between 1 and 5.'],
    [messages.exactAmountFor, { name: 'Card' }, 'Please add exact amount for Card'],
    [messages.codeNotFound, { code: '4006381333931' }, '4006381333931 not found'],
    [messages.fetchListFailed, { list: 'products' }, 'There was some error while fetching the products'],
    [messages.min, {}, 'This value should be greater then :min'],
  ] as Array<[string, Record<string, string | number>, string]>)('%s', (template, params, expected) => {
    expect(fillMessage(template, params)).toBe(expected);
  });
});

describe('zod building blocks', () => {
  const firstMessage = (r: { success: boolean; error?: { issues: Array<{ message: string }> } }): string | undefined =>
    r.success ? undefined : r.error?.issues[0]?.message;

  it.each([
    ['name', true, undefined],
    ['  ', false, messages.required],
    ['', false, messages.required],
    [42, false, messages.required],
  ] as Array<[unknown, boolean, string | undefined]>)('requiredString %j', (input, ok, message) => {
    const r = requiredString.safeParse(input);
    expect(r.success).toBe(ok);
    expect(firstMessage(r)).toBe(message);
  });

  it.each([
    ['12.5', true, undefined],
    [12.5, true, undefined],
    ['-3', true, undefined],
    ['abc', false, messages.number],
    ['', false, messages.number],
    ['1.005', false, messages.number],
    [Number.NaN, false, messages.number],
    [null, false, messages.number],
  ] as Array<[unknown, boolean, string | undefined]>)('moneyInput %j', (input, ok, message) => {
    const r = moneyInput.safeParse(input);
    expect(r.success).toBe(ok);
    expect(firstMessage(r)).toBe(message);
  });

  it.each([
    ['shop@example.com', true, undefined],
    [' shop@example.com ', true, undefined],
    ['nope', false, messages.email],
    ['', false, messages.required],
  ] as Array<[unknown, boolean, string | undefined]>)('emailString %j', (input, ok, message) => {
    const r = emailString.safeParse(input);
    expect(r.success).toBe(ok);
    expect(firstMessage(r)).toBe(message);
  });
});
