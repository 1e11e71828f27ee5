import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeScaleBarcode, gs1CheckDigit, gs1Problem, gs1Shape, gs1ShapeProblem, isInStoreCode, upcEToUpcA, withCheckDigit } from './barcode.ts';

/** Independent reference: the GS1 rule written the other way round (weights from the left, by parity of length). */
function reference(body: string): number {
  const digits = [...body].map(Number);
  const total = digits.reduce((sum, d, i) => sum + d * ((digits.length - i) % 2 === 1 ? 3 : 1), 0);
  return (10 - (total % 10)) % 10;
}

describe('GS1 check digits', () => {
  it('known codes from products on a shelf', () => {
    expect(gs1Problem('4006381333931', 'ean13')).toBeNull(); // Stabilo pen, the classic example
    expect(gs1Problem('5000000000001', 'ean13')).toMatchObject({ problem: 'checkDigit', expected: 5 });
    expect(gs1Problem('96385074', 'ean8')).toBeNull();
    expect(gs1Problem('036000291452', 'upca')).toBeNull();
    expect(gs1Problem('036000291453', 'upca')).toMatchObject({ problem: 'checkDigit', expected: 2 });
    expect(gs1Problem('01234565', 'upce')).toBeNull(); // = UPC-A 012345000065
    expect(upcEToUpcA('01234565')).toBe('012345000065');
    expect(gs1Problem('400638133393', 'ean13')).toMatchObject({ problem: 'length' });
    expect(gs1Problem('40063813339X', 'ean13')).toMatchObject({ problem: 'digits' });
  });

  it('agrees with the reference for any body, and any other last digit is refused', () => {
    fc.assert(fc.property(fc.constantFrom(7, 11, 12), fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 12, maxLength: 12 }), fc.integer({ min: 1, max: 9 }),
      (len, digits, shift) => {
        const body = digits.slice(0, len).join('');
        const check = reference(body);
        expect(gs1CheckDigit(body)).toBe(check);
        const type = len === 7 ? 'ean8' : len === 11 ? 'upca' : 'ean13';
        expect(gs1Problem(`${body}${check}`, type)).toBeNull();
        expect(gs1Problem(`${body}${(check + shift) % 10}`, type)).toMatchObject({ problem: 'checkDigit', expected: check });
      }), { numRuns: 500 });
  });

  it('a shape is a type only for 8, 12 and 13 digits', () => {
    expect(gs1Shape('4006381333931')).toBe('ean13');
    expect(gs1Shape('036000291452')).toBe('upca');
    expect(gs1Shape('96385074')).toBe('ean8');
    expect(gs1Shape('1234567')).toBeNull();
    expect(gs1Shape('ABC-1')).toBeNull();
  });
});

describe('scale barcodes (prefix 2x)', () => {
  const price = { prefixes: ['21', '22'], itemDigits: 5, embeds: 'price' as const };
  const weight = { prefixes: ['23'], itemDigits: 5, embeds: 'weight' as const };
  const withCheck = (body: string) => `${body}${reference(body)}`;

  it('decodes the item code and the embedded price or weight', () => {
    expect(decodeScaleBarcode(withCheck('211234501250'), price)).toEqual({ itemCode: '12345', price: 1250 });
    expect(decodeScaleBarcode(withCheck('230042000750'), weight)).toEqual({ itemCode: '00420', grams: 750 });
  });

  it('leaves other prefixes, wrong check digits and no rule alone', () => {
    expect(decodeScaleBarcode(withCheck('201234501250'), price)).toBeNull();
    const good = withCheck('211234501250');
    expect(decodeScaleBarcode(`${good.slice(0, 12)}${(Number(good[12]) + 1) % 10}`, price)).toBeNull();
    expect(decodeScaleBarcode(good, null)).toBeNull();
  });
});

describe('barcodes of no declared type (variants, extra barcodes)', () => {
  it('a GS1-shaped code (8, 12 or 13 digits) must carry its check digit, with the digit it should end in', () => {
    expect(gs1ShapeProblem('4006381333931')).toBeNull();
    expect(gs1ShapeProblem('4006381333932')).toEqual({ type: 'ean13', problem: 'checkDigit', expected: 1, message: 'The check digit of this EAN-13 is wrong (it should end in 1).' });
    expect(gs1ShapeProblem('96385075')).toMatchObject({ type: 'ean8', expected: 4 });
    expect(gs1ShapeProblem('036000291453')).toMatchObject({ type: 'upca', expected: 2 });
  });

  it('in-store codes (13 digits, prefix 2) and codes of other shapes pass', () => {
    expect(isInStoreCode('2100001005009')).toBe(true);
    expect(isInStoreCode('1100001005009')).toBe(false);
    expect(isInStoreCode('21000010050')).toBe(false);
    for (const code of ['2100001005009', '2200000000001', '1234567890', '12345678901234', 'SKU-9', '4006381333932-1']) expect(gs1ShapeProblem(code)).toBeNull();
  });

  it('withCheckDigit makes a GS1-shaped code valid and leaves other codes alone', () => {
    expect(withCheckDigit('4006381333930')).toBe('4006381333931');
    expect(withCheckDigit('96385070')).toBe('96385074');
    expect(withCheckDigit('123')).toBe('123');
    expect(withCheckDigit('ABCDEFGH')).toBe('ABCDEFGH');
  });
});
