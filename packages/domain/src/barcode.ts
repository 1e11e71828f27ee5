/**
 * Retail barcodes in (issue 26): the GS1 check digit of EAN-13, EAN-8, UPC-A and UPC-E, and the
 * "scale" barcodes a weighing scale or a price-embedded label prints (EAN-13 with prefix 2x: an
 * item code and a price or a weight, by a per-store rule).
 *
 * The GS1 check digit (GS1 General Specifications 7.9.1): from the right, the digits before the
 * check digit are weighted 3, 1, 3, 1 ...; the check digit brings the sum to a multiple of 10.
 */
export type Gs1Type = 'ean13' | 'ean8' | 'upca' | 'upce';
export const GS1_TYPES: readonly Gs1Type[] = ['ean13', 'ean8', 'upca', 'upce'];
const LENGTH: Record<Gs1Type, number> = { ean13: 13, ean8: 8, upca: 12, upce: 8 };

/** The check digit for `body` (all digits, without the check digit). */
export function gs1CheckDigit(body: string): number {
  let sum = 0;
  for (let i = body.length - 1, w = 3; i >= 0; i--, w = 4 - w) sum += (body.charCodeAt(i) - 48) * w;
  return (10 - (sum % 10)) % 10;
}

/**
 * UPC-E (8 digits: number system 0 or 1, six digits, check digit) expanded to its UPC-A, whose
 * check digit it carries (GS1 zero-suppression rules by the last of the six digits).
 */
export function upcEToUpcA(code: string): string | null {
  if (!/^[01]\d{7}$/.test(code)) return null;
  const ns = code[0];
  const d = code.slice(1, 7);
  const last = d[5];
  let body: string;
  if (last <= '2') body = `${d[0]}${d[1]}${last}0000${d[2]}${d[3]}${d[4]}`;
  else if (last === '3') body = `${d[0]}${d[1]}${d[2]}00000${d[3]}${d[4]}`;
  else if (last === '4') body = `${d[0]}${d[1]}${d[2]}${d[3]}00000${d[4]}`;
  else body = `${d[0]}${d[1]}${d[2]}${d[3]}${d[4]}0000${last}`;
  return `${ns}${body}${code[7]}`;
}

export type BarcodeProblem = 'length' | 'digits' | 'checkDigit';

/** Why `code` is not a valid barcode of `type` (null: it is), with the check digit it should end in. */
export function gs1Problem(code: string, type: Gs1Type): { problem: BarcodeProblem; expected?: number } | null {
  if (!/^\d*$/.test(code)) return { problem: 'digits' };
  if (code.length !== LENGTH[type]) return { problem: 'length' };
  const full = type === 'upce' ? upcEToUpcA(code) : code;
  if (!full) return { problem: 'digits' };
  const expected = gs1CheckDigit(full.slice(0, -1));
  return expected === Number(full[full.length - 1]) ? null : { problem: 'checkDigit', expected };
}

/** The GS1 type a code has the shape of (8 digits: EAN-8; 12: UPC-A; 13: EAN-13), or null. */
export function gs1Shape(code: string): Gs1Type | null {
  if (!/^\d+$/.test(code)) return null;
  return code.length === 13 ? 'ean13' : code.length === 12 ? 'upca' : code.length === 8 ? 'ean8' : null;
}

/** A human message for a barcode problem (forms and the till). */
export function gs1Message(type: Gs1Type, p: { problem: BarcodeProblem; expected?: number }): string {
  const name = { ean13: 'EAN-13', ean8: 'EAN-8', upca: 'UPC-A', upce: 'UPC-E' }[type];
  if (p.problem === 'checkDigit') return `The check digit of this ${name} is wrong (it should end in ${p.expected}).`;
  if (p.problem === 'length') return `An ${name} has ${LENGTH[type]} digits.`;
  return `An ${name} has digits only.`;
}

/**
 * A store's rule for scale barcodes: EAN-13 codes whose first two digits are in `prefixes` carry an
 * item code of `itemDigits` digits after the prefix, then the embedded value (price in minor units
 * of the store's currency, or weight in grams) in the remaining digits before the check digit.
 */
export interface ScaleBarcodeRule {
  prefixes: string[];
  itemDigits: number;
  embeds: 'price' | 'weight';
}

export interface ScaleBarcode { itemCode: string; price?: number; grams?: number }

/** The item code and embedded value of a scale barcode, or null when the rule does not apply or the check digit is wrong. */
export function decodeScaleBarcode(code: string, rule: ScaleBarcodeRule | null | undefined): ScaleBarcode | null {
  if (!rule || code.length !== 13 || !/^\d{13}$/.test(code) || !rule.prefixes.includes(code.slice(0, 2))) return null;
  if (gs1Problem(code, 'ean13')) return null;
  const itemCode = code.slice(2, 2 + rule.itemDigits);
  const value = Number(code.slice(2 + rule.itemDigits, 12));
  return rule.embeds === 'price' ? { itemCode, price: value } : { itemCode, grams: value };
}

/**
 * An in-store code (GS1 restricted circulation): an EAN-13 whose first digit is 2 (prefixes 20-29:
 * the scale and price-embedded labels above, codes a shop makes up for its own goods). A shop may
 * number these as it likes, so their check digit is not enforced where the type is not declared.
 */
export function isInStoreCode(code: string): boolean {
  return /^2\d{12}$/.test(code);
}

/**
 * A barcode of no declared type (a variant's, an extra barcode): when it has the shape of a GS1
 * code (8, 12 or 13 digits: EAN-8, UPC-A, EAN-13) and is not an in-store code, a wrong check digit
 * is refused with the digit it should end in; anything else (SKU-like codes, 10 or 14 digits...) passes.
 */
export function gs1ShapeProblem(code: string): { type: Gs1Type; problem: BarcodeProblem; expected?: number; message: string } | null {
  const type = gs1Shape(code);
  if (!type || isInStoreCode(code)) return null;
  const p = gs1Problem(code, type);
  return p ? { type, ...p, message: gs1Message(type, p) } : null;
}

/**
 * `code` made a valid GS1 code of its shape: the last digit replaced by the check digit of the
 * digits before it; a code without a GS1 shape is returned as it is.
 */
export function withCheckDigit(code: string): string {
  return gs1Shape(code) ? code.slice(0, -1) + String(gs1CheckDigit(code.slice(0, -1))) : code;
}
