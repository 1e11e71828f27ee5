/**
 * What the fuzz test (fuzz.test.ts) throws at the routes: hostile values (every run, and more under
 * soak), the deep and huge bodies written as JSON text, a record turned back into the body a client
 * sends, and the paths of a body's fields with a copy that changes one of them.
 */
import fc from 'fast-check';

export const BIG = 'a'.repeat(1_000_000);
export const DEEP_ARRAY = '@@DEEP_ARRAY@@';
export const DEEP_OBJECT = '@@DEEP_OBJECT@@';
export const REMOVE = Symbol('remove the field');
export const DEEP_ARRAY_JSON = '['.repeat(10_000) + ']'.repeat(10_000);
export const DEEP_OBJECT_JSON = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);

/** Values every field meets, in every run. */
export const HOSTILE_CORE: unknown[] = [
  -1, 1e308, 'NaN', '1e999', '', null, [], {}, BIG, '\u0000', "'; drop table product; --", '<script>alert(1)</script>', DEEP_ARRAY, true,
];
/** More values: all under soak, a rotating handful otherwise. */
export const HOSTILE_EXTRA: unknown[] = [
  0, -0.01, -1e308, 2 ** 53 + 1, 2147483648, -2147483649, 1e21, 0.1 + 0.2, '123456789012345.678', 123456789012.34, 'Infinity', '-Infinity', '-0', '0x1F', '1,5', ' 12 ',
  '١٢٣', '12abc', ' ', '\uD800', '🧾👩‍👩‍👧‍👦', 'İstanbul ǅ ß', 'a\u202Eb', '../../etc/passwd', '%00', '${7*7}{{7*7}}', 'null', 'undefined', 'true',
  '/api/stores/2', '/api/stores/999999', '/api/products/0', '/api/users/1', 999999, -999999, { '@id': '/api/stores/999999' }, { id: -5 },
  [null], [1, 'a', {}], [[[[]]]], { toString: 0 }, { valueOf: 'x', toString: null }, { length: -1 }, { a: { b: { c: {} } } }, DEEP_OBJECT, 'x'.repeat(256), 'x'.repeat(70_000), '2025-13-45T99:99', '1970-01-01T00:00',
];

export function payloadText(body: unknown): string {
  const text = JSON.stringify(body) ?? 'null';
  return text.replaceAll(`"${DEEP_ARRAY}"`, DEEP_ARRAY_JSON).replaceAll(`"${DEEP_OBJECT}"`, DEEP_OBJECT_JSON);
}

/** Server-owned fields out, relations as IRIs, unique texts made unique: what the client sends back. */
export function asRequest(rec: Record<string, any>, n: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rec)) {
    if (['@id', '@type', '@context', 'id', 'uuid', 'createdAt', 'updatedAt', 'deletedAt'].includes(k) && !(k === 'createdAt' && typeof v === 'string')) continue;
    if (v && typeof v === 'object' && !Array.isArray(v) && typeof v['@id'] === 'string') out[k] = v['@id'];
    else if (typeof v === 'string' && /^(name|code|barcode|sku|username|poNumber|purchaseNumber)$/.test(k)) out[k] = `${v.slice(0, 40)} f${n}`;
    else out[k] = v;
  }
  return out;
}

/** Paths of the fields of a body, one level into objects and into the first element of arrays. */
export function fieldPaths(body: unknown): (string | number)[][] {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [];
  const out: (string | number)[][] = [];
  for (const [k, v] of Object.entries(body)) {
    out.push([k]);
    const inner = Array.isArray(v) ? v[0] : v;
    if (inner && typeof inner === 'object' && !Array.isArray(inner)) {
      for (const k2 of Object.keys(inner).slice(0, 8)) out.push(Array.isArray(v) ? [k, 0, k2] : [k, k2]);
    }
  }
  return out;
}

export function withValue(body: unknown, path: (string | number)[], value: unknown, remove = false): unknown {
  const copy = structuredClone(body) as any;
  let at = copy;
  for (const p of path.slice(0, -1)) at = at[p];
  const last = path[path.length - 1];
  if (remove) { if (Array.isArray(at)) at.splice(Number(last), 1); else delete at[last]; } else at[last] = value;
  return copy;
}

export const pathText = (p: (string | number)[]) => p.map((x) => (typeof x === 'number' ? `[${x}]` : `.${x}`)).join('').slice(1);

export const hostileArb = fc.oneof(
  fc.constantFrom(...HOSTILE_CORE.filter((v) => v !== BIG), ...HOSTILE_EXTRA.filter((v) => typeof v !== 'string' || v.length < 1000)),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.double(),
  fc.integer(),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map((b) => b.toString()),
  fc.jsonValue({ maxDepth: 3 }),
);
