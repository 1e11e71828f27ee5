import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BLANK, NOT_NUMBER, NOT_POSITIVE, decimal, optionalDecimal, optionalText, parseRef, ref, text } from './wire-fields.ts';

const messages = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => i.message);
};

describe('wire fields', () => {
  it.each([
    [text(), '', [BLANK]],
    [text(), '   ', [BLANK]],
    [decimal(), 'abc', [NOT_NUMBER]],
    [decimal(), '', [BLANK]],
    [decimal({ positive: true }), '0', [NOT_POSITIVE]],
    [optionalDecimal(), 'x1', [NOT_NUMBER]],
    [optionalDecimal(), 5, []],
    [optionalDecimal(), null, []],
    [optionalText(), 5, ['This value should be of type string.']],
  ])('%#: reports the spec message', (schema, value, expected) => {
    expect(messages(schema as z.ZodType, value)).toEqual(expected);
  });

  it('normalises decimals and empty optional values', () => {
    expect(decimal().parse(12.5)).toBe('12.5');
    expect(decimal().parse(' 3 ')).toBe('3');
    expect(optionalDecimal().parse('')).toBeNull();
    expect(optionalText().parse(undefined)).toBeUndefined();
  });

  it.each([
    [5, 5], ['5', 5], ['/api/stores/7', 7], [{ '@id': '/api/taxes/3' }, 3], [{ id: 4 }, 4], [{ value: '9' }, 9],
    [null, null], ['', null], ['abc', undefined], [-1, undefined], [1.5, undefined], ['99999999999', undefined],
  ])('parseRef(%j) = %j', (input, expected) => {
    expect(parseRef(input)).toBe(expected);
  });

  it('ref() names a blank reference and a bad one', () => {
    expect(messages(ref(), null)).toEqual([BLANK]);
    expect(messages(ref(), 'nope')).toEqual(['This value is not a valid reference.']);
  });
});
