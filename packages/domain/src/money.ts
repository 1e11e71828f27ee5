/**
 * Exact money, quantity and rate arithmetic shared by the till and the server.
 *
 * Representation (all plain JS numbers holding safe integers):
 * - money: integer minor units, "cents" (12.50 -> 1250);
 * - quantity: integer thousandths, "milli" (1.5 kg -> 1500, 1 piece -> 1000);
 * - rate: integer hundredths of a percent (16% -> 1600, 7.25% -> 725).
 *
 * Decimal input (wire numbers, form strings) is parsed with string arithmetic, never by
 * multiplying a float: "1.005" and 1.005 both become 101 cents, not 100.
 *
 * Rounding rule, the one that keeps till and server equal to the cent:
 * - every line amount (gross, discount, each tax, order tax, order discount) is rounded to the
 *   cent exactly once, from exact integer inputs, half away from zero (so a refund line is the
 *   exact negation of the sale line);
 * - every total is a plain sum of already-rounded amounts, never re-derived from unrounded ones.
 * Products are computed in BigInt so price x quantity x rate can never lose precision.
 */

/** Minor units per currency unit. */
export const CENTS_PER_UNIT = 100;
/** Quantity of exactly one (1.000) in milli units. */
export const QTY_ONE = 1000;
/** A rate of 100 % in hundredths of a percent. */
export const RATE_FULL = 10_000;

export type DecimalInput = string | number | null | undefined;

const DECIMAL_RE = /^([+-])?(?:(\d+)(?:\.(\d*))?|\.(\d+))(?:[eE]([+-]?\d+))?$/;
const MAX_EXPONENT = 400;

/** Integer division rounding half away from zero. `d` must be positive. */
export function divRoundHalfAway(n: bigint, d: bigint): bigint {
  if (d <= 0n) throw new RangeError('divisor must be positive');
  const negative = n < 0n;
  const a = negative ? -n : n;
  let q = a / d;
  if ((a % d) * 2n >= d) q += 1n;
  return negative ? -q : q;
}

/** Converts a BigInt to a number, refusing anything outside the safe-integer range. */
export function toSafeNumber(value: bigint): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`amount out of range: ${value}`);
  return n;
}

function assertInteger(value: number, what: string): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${what} must be a safe integer, got ${value}`);
}

/**
 * Parses a decimal (string or number) into an integer scaled by 10^scale, rounding extra
 * digits half away from zero. null, undefined and '' give 0. Throws RangeError on anything
 * that is not a finite decimal number or that does not fit in a safe integer.
 */
export function parseScaled(v: DecimalInput, scale: number): number {
  if (v === null || v === undefined) return 0;
  let text: string;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new RangeError(`not a finite number: ${v}`);
    // String(n) is the shortest text that round-trips, i.e. what the sender meant: 1.005 -> "1.005".
    text = String(v);
  } else {
    text = v.trim();
    if (text === '') return 0;
  }
  const plain = parsePlain(text, scale);
  if (plain !== undefined) return plain;
  const m = DECIMAL_RE.exec(text);
  if (!m) throw new RangeError(`not a decimal number: ${JSON.stringify(v)}`);
  const [, sign, intDigits = '', fracA, fracB, expText] = m;
  const frac = fracA ?? fracB ?? '';
  const exponent = expText === undefined ? 0 : Number(expText);
  if (Math.abs(exponent) > MAX_EXPONENT) throw new RangeError(`exponent out of range: ${text}`);
  const digits = (intDigits + frac).replace(/^0+(?=\d)/, '') || '0';
  // value = digits * 10^(exponent - frac.length); scaled = value * 10^scale
  const shift = exponent - frac.length + scale;
  let scaled: bigint;
  if (shift >= 0) scaled = BigInt(digits) * 10n ** BigInt(shift);
  else if (-shift > digits.length + 1) scaled = 0n; // far below half a unit
  else scaled = divRoundHalfAway(BigInt(digits), 10n ** BigInt(-shift));
  return toSafeNumber(sign === '-' ? -scaled : scaled);
}

const PLAIN_RE = /^(-?)(\d+)(?:\.(\d+))?$/;
const POW10 = Array.from({ length: 16 }, (_, i) => 10 ** i);

/**
 * parseScaled's common case without BigInt: a plain decimal ("-1234.500", as PostgreSQL prints a
 * numeric) whose scaled value has at most 15 digits, so every step is an exact double. A report of
 * 32,000 rows parses 200,000 of them. Anything else (exponents, a leading + or '.', more digits):
 * undefined, and the general path decides.
 */
function parsePlain(text: string, scale: number): number | undefined {
  const m = PLAIN_RE.exec(text);
  if (!m || scale > 15 || m[2].length + scale > 15) return undefined;
  const [, sign, int, frac = ''] = m;
  let n = Number(int) * POW10[scale] + (scale ? Number(frac.length <= scale ? frac.padEnd(scale, '0') : frac.slice(0, scale)) : 0);
  // Half away from zero: what is dropped is at least half a unit when its first digit is 5 or more.
  if (frac.length > scale && frac.charCodeAt(scale) >= 53) n += 1;
  return sign === '-' && n !== 0 ? -n : n;
}

/** Like parseScaled but returns null instead of throwing. */
export function tryParseScaled(v: DecimalInput, scale: number): number | null {
  try {
    return parseScaled(v, scale);
  } catch {
    return null;
  }
}

/** Decimal money -> cents. "12.5", "12.50", 12.5 -> 1250; "1.005" -> 101; null/'' -> 0. Throws on junk. */
export function parseMoney(v: DecimalInput): number {
  return parseScaled(v, 2);
}

/** parseMoney that returns null for invalid input instead of throwing. */
export function tryParseMoney(v: DecimalInput): number | null {
  return tryParseScaled(v, 2);
}

/** Decimal quantity -> milli. "1.5" -> 1500, 2 -> 2000, "0.0005" -> 1. */
export function parseQuantity(v: DecimalInput): number {
  return parseScaled(v, 3);
}

/** Percent -> hundredths of a percent. "16" -> 1600, "16.5" -> 1650, 7.25 -> 725. */
export function parseRate(v: DecimalInput): number {
  return parseScaled(v, 2);
}

function scaledToString(value: number, scale: number, fixed: boolean): string {
  assertInteger(value, 'value');
  const negative = value < 0;
  const digits = Math.abs(value).toString().padStart(scale + 1, '0');
  const int = digits.slice(0, digits.length - scale);
  let frac = digits.slice(digits.length - scale);
  if (!fixed) frac = frac.replace(/0+$/, '');
  return (negative ? '-' : '') + int + (frac ? '.' + frac : '');
}

/** Cents -> wire number: 1250 -> 12.5. Exact: the result is the double nearest the decimal. */
export function toDecimal(cents: number): number {
  assertInteger(cents, 'cents');
  return cents / CENTS_PER_UNIT + 0; // + 0 turns -0 into 0
}

/** Cents -> fixed two-decimal string: 1250 -> "12.50", -5 -> "-0.05". */
export function toDecimalString(cents: number): string {
  return scaledToString(cents, 2, true);
}

/** Milli -> wire number: 1500 -> 1.5. */
export function quantityToDecimal(qtyMilli: number): number {
  assertInteger(qtyMilli, 'quantity');
  return qtyMilli / QTY_ONE + 0;
}

/** Milli -> shortest decimal string: 1500 -> "1.5", 2000 -> "2". */
export function quantityToString(qtyMilli: number): string {
  return scaledToString(qtyMilli, 3, false);
}

/** Hundredths of a percent -> wire number: 1650 -> 16.5. */
export function rateToDecimal(rateHundredths: number): number {
  assertInteger(rateHundredths, 'rate');
  return rateHundredths / 100 + 0;
}

/** price x quantity, rounded once to the cent, half away from zero. */
export function mulPriceQty(priceCents: number, qtyMilli: number): number {
  assertInteger(priceCents, 'price');
  assertInteger(qtyMilli, 'quantity');
  return toSafeNumber(divRoundHalfAway(BigInt(priceCents) * BigInt(qtyMilli), BigInt(QTY_ONE)));
}

/** rate % of an amount, rounded once to the cent, half away from zero. */
export function percentOf(cents: number, rateHundredths: number): number {
  assertInteger(cents, 'cents');
  assertInteger(rateHundredths, 'rate');
  return toSafeNumber(divRoundHalfAway(BigInt(cents) * BigInt(rateHundredths), BigInt(RATE_FULL)));
}

/** Exact sum of cent amounts (throws if any is not a safe integer or the sum overflows). */
export function sumCents(list: readonly number[]): number {
  let total = 0n;
  for (const c of list) {
    assertInteger(c, 'cents');
    total += BigInt(c);
  }
  return toSafeNumber(total);
}

export interface MoneyInputOptions {
  /** Allow a leading minus sign (default true). */
  allowNegative?: boolean;
  /** Maximum number of decimals (default 2). */
  scale?: number;
}

/**
 * True when a typed string is a valid amount: optional sign, digits with an optional decimal
 * point and at most `scale` decimals ("12", "12.5", "12.", ".5", "-3"). No exponent, no
 * grouping separators, no blank.
 */
export function isValidMoneyInput(value: string, options: MoneyInputOptions = {}): boolean {
  const { allowNegative = true, scale = 2 } = options;
  const m = /^([+-])?(?:(\d+)(?:\.(\d*))?|\.(\d+))$/.exec(value.trim());
  if (!m) return false;
  if (m[1] === '-' && !allowNegative) return false;
  const frac = m[3] ?? m[4] ?? '';
  if (frac.length > scale) return false;
  return tryParseScaled(value, scale) !== null;
}

// ---------------------------------------------------------------------------------------------
// Currency minor units (issue 19): amounts in the minor units of the store's currency
// (USD 2 digits, JPY 0, KWD 3: `currency.ts` currencyDigits).
// ---------------------------------------------------------------------------------------------

/** Thrown for an amount with more decimals than the currency allows (a RangeError: a 422). */
export class PrecisionError extends RangeError {
  constructor(readonly digits: number) {
    super(`This value has more decimals than the currency allows (${digits}).`);
  }
}

/** Minor units -> fixed decimal string with the currency's digits: (1234, 3) -> "1.234", (1500, 0) -> "1500". */
export function minorToString(minor: number, digits: number): string {
  return scaledToString(minor, digits, true);
}

/** Minor units -> wire number: (1234, 3) -> 1.234. */
export function minorToDecimal(minor: number, digits: number): number {
  assertInteger(minor, 'amount');
  return Number(scaledToString(minor, digits, false)) + 0;
}

/** A stored decimal (database numeric) -> minor units, rounded half away from zero to the currency's digits. */
export function parseMinor(v: DecimalInput, digits: number): number {
  return parseScaled(v, digits);
}

/**
 * A client's amount -> minor units, for a currency with `digits` minor digits. The wire rule
 * (docs/api.md "Currency amounts"): the amount is read from its shortest decimal text (a JSON
 * number as JavaScript prints it); if it lies within 1/10,000 of a minor unit of an amount the
 * currency can express, it is that amount (the old client's float sums such as 4.499999999999999
 * or 10.750000000000002); otherwise it has more decimals than the currency allows and a
 * PrecisionError is thrown ("10.755" in USD, 1.5 in JPY).
 */
export function parseWireAmount(v: DecimalInput, digits: number): number {
  const fine = parseScaled(v, digits + 4);
  const rest = Math.abs(fine % 10_000);
  if (rest > 1 && rest < 9_999) throw new PrecisionError(digits);
  return parseScaled(v, digits);
}
