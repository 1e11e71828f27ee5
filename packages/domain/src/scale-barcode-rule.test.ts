import { describe, expect, it } from 'vitest';
import { decodeScaleBarcode } from './barcode.ts';
import { SCALE_RULE_MESSAGES, checkScaleRule, scaleBarcodeExample, scaleBarcodeRuleSchema } from './scale-barcode-rule.ts';

describe('the scale barcode rule schema (issue 26)', () => {
  it('takes a rule as JSON text or an object, normalised (unknown keys and a null store dropped)', () => {
    expect(checkScaleRule('{"prefixes":["21","22"],"itemDigits":5,"embeds":"price","store":3}')).toEqual({
      ok: true, rule: { prefixes: ['21', '22'], itemDigits: 5, embeds: 'price', store: 3 },
    });
    expect(checkScaleRule({ prefixes: ['29'], itemDigits: 6, embeds: 'weight', store: null, extra: 1 })).toEqual({
      ok: true, rule: { prefixes: ['29'], itemDigits: 6, embeds: 'weight' },
    });
    expect(scaleBarcodeRuleSchema.safeParse({ prefixes: ['20'], itemDigits: 4, embeds: 'weight' }).success).toBe(true);
  });

  it('names the field of each mistake', () => {
    const cases: [unknown, string, string][] = [
      ['{not json', '', SCALE_RULE_MESSAGES.json],
      ['[1,2]', '', SCALE_RULE_MESSAGES.json],
      [null, '', SCALE_RULE_MESSAGES.json],
      [{ itemDigits: 5, embeds: 'price' }, 'prefixes', SCALE_RULE_MESSAGES.prefixes],
      [{ prefixes: ['2'], itemDigits: 5, embeds: 'price' }, 'prefixes', SCALE_RULE_MESSAGES.prefixes],
      [{ prefixes: ['21', '21'], itemDigits: 5, embeds: 'price' }, 'prefixes', SCALE_RULE_MESSAGES.prefixes],
      [{ prefixes: ['13'], itemDigits: 5, embeds: 'price' }, 'prefixes', SCALE_RULE_MESSAGES.prefixes],
      [{ prefixes: ['21'], itemDigits: 3, embeds: 'price' }, 'itemDigits', SCALE_RULE_MESSAGES.itemDigits],
      [{ prefixes: ['21'], itemDigits: 5.5, embeds: 'price' }, 'itemDigits', SCALE_RULE_MESSAGES.itemDigits],
      [{ prefixes: ['21'], itemDigits: 5, embeds: 'count' }, 'embeds', SCALE_RULE_MESSAGES.embeds],
      [{ prefixes: ['21'], itemDigits: 5, embeds: 'price', store: 'main' }, 'store', SCALE_RULE_MESSAGES.store],
      [{ prefixes: ['21'], itemDigits: 5, embeds: 'price', store: 0 }, 'store', SCALE_RULE_MESSAGES.store],
    ];
    for (const [value, path, message] of cases) {
      const check = checkScaleRule(value);
      expect(check.ok, JSON.stringify(value)).toBe(false);
      if (!check.ok) expect(check.violations, JSON.stringify(value)).toEqual([{ path, message }]);
    }
    const several = checkScaleRule({ prefixes: 'x', itemDigits: 9 });
    expect(several.ok ? [] : several.violations.map((v) => v.path)).toEqual(['prefixes', 'itemDigits', 'embeds']);
  });

  it('builds a live example the decoder reads back', () => {
    expect(scaleBarcodeExample({ prefixes: ['20'], itemDigits: 5, embeds: 'weight' })).toEqual({ code: '2012345006256', decoded: { itemCode: '12345', grams: 625 } });
    expect(scaleBarcodeExample({ prefixes: ['22', '23'], itemDigits: 4, embeds: 'price' })).toMatchObject({ decoded: { itemCode: '1234', price: 625 } });
    const six = scaleBarcodeExample({ prefixes: ['21'], itemDigits: 6, embeds: 'price' });
    expect(six?.code).toMatch(/^21123456\d{5}$/);
    expect(decodeScaleBarcode(six!.code, { prefixes: ['21'], itemDigits: 6, embeds: 'price' })).toEqual({ itemCode: '123456', price: 625 });
    expect(scaleBarcodeExample({ prefixes: [], itemDigits: 5, embeds: 'price' })).toBeNull();
    expect(scaleBarcodeExample({ prefixes: ['21'], itemDigits: 8, embeds: 'price' })).toBeNull();
  });
});
