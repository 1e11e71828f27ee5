/**
 * Variant generation for the item form (reference client 4.9, spec sections 5 and 9).
 *
 * Rows are the cross product of the groups' values, the LAST group varying slowest
 * (Size [S, M] x Color [Red, Blue] -> S-Red, M-Red, S-Blue, M-Blue). Groups without a name
 * or without values are ignored (the reference let an empty group wipe out every row).
 * Row i gets barcode = base barcode + i + 1 computed as a number on the digit string with
 * BigInt (the reference concatenated strings for typed barcodes: "123" -> "12301"); leading
 * zeros keep the base's width. A base barcode that is not all digits gets '-' + (i + 1).
 */

import { gs1Shape, withCheckDigit } from './barcode.ts';

export interface VariantGroup {
  groupName: string;
  values: readonly string[];
}

export interface GeneratedVariant {
  /** Values joined with '-', e.g. 'S-Red'. */
  attributeValue: string;
  /** The item's base price, as typed in the form. */
  price: string;
  /** Initial stock, always "10". */
  quantity: string;
  barcode: string;
}

export const GENERATED_VARIANT_QUANTITY = '10';

function cleanValues(values: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of values) {
    const v = raw.trim();
    if (v !== '' && !out.includes(v)) out.push(v);
  }
  return out;
}

/**
 * Barcode of generated row `index` (0-based). A base with the shape of a GS1 code (8, 12 or 13
 * digits: EAN-8, UPC-A, EAN-13) counts on the digits before its check digit and each row gets its
 * own valid check digit (issue 26: such codes are refused with a wrong one), as long as the count
 * keeps the width; other numeric bases count on the whole number.
 */
export function variantBarcode(baseBarcode: string, index: number): string {
  const base = baseBarcode.trim();
  if (base === '') return String(index + 1);
  if (gs1Shape(base)) {
    const body = (BigInt(base.slice(0, -1)) + BigInt(index + 1)).toString().padStart(base.length - 1, '0');
    if (body.length === base.length - 1) return withCheckDigit(`${body}0`);
  }
  if (/^\d+$/.test(base)) return (BigInt(base) + BigInt(index + 1)).toString().padStart(base.length, '0');
  return `${base}-${index + 1}`;
}

export function generateVariants(
  groups: readonly VariantGroup[],
  basePrice: string,
  baseBarcode: string,
): GeneratedVariant[] {
  const usable = groups
    .filter((g) => g.groupName.trim() !== '')
    .map((g) => cleanValues(g.values))
    .filter((values) => values.length > 0);
  if (usable.length === 0) return [];
  let combos: string[][] = [[]];
  for (const values of usable) {
    const next: string[][] = [];
    for (const value of values) for (const combo of combos) next.push([...combo, value]);
    combos = next;
  }
  return combos.map((combo, i) => ({
    attributeValue: combo.join('-'),
    price: basePrice,
    quantity: GENERATED_VARIANT_QUANTITY,
    barcode: variantBarcode(baseBarcode, i),
  }));
}

/** Adds a value to a group's values unless it is blank or already present (returns a new array). */
export function addGroupValue(values: readonly string[], value: string): string[] {
  const v = value.trim();
  if (v === '' || values.includes(v)) return [...values];
  return [...values, v];
}

/** Adds an empty group unless the name is blank or already used (returns a new array). */
export function addVariantGroup(groups: readonly VariantGroup[], groupName: string): VariantGroup[] {
  const name = groupName.trim();
  if (name === '' || groups.some((g) => g.groupName.trim() === name)) return [...groups];
  return [...groups, { groupName: name, values: [] }];
}

/** A random barcode: an integer from 1 to 10^10 inclusive, as a string; one of 8 digits (an EAN-8's shape) ends in its check digit. */
export function randomBarcode(random: () => number = Math.random): string {
  return withCheckDigit(String(Math.floor(random() * 1e10) + 1));
}
