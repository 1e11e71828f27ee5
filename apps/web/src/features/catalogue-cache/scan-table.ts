/**
 * The till's exact scan lookup (TableIndex.scanKeys .. scanSlots): the keys a scan may match, the
 * product position and variant each one scans, and a hash table of their numbers. Built over every
 * row (scanKeysOf) or changed for a few keys (setScanKeys, index-patch.ts).
 */
import { P, type ProductRow } from '@pos/domain/catalogue-sync';
import { appendTexts, textAt, type TextColumn } from './text-column';

export interface ScanTable {
  /**
   * The exact scan keys (product barcode, variant barcode, product name; trimmed; a barcode wins
   * over a name, a product barcode over a variant's): key i scans product position scanAt[i],
   * variant scanVariant[i] (-1: the product itself). Only keys in scanSlots are live (a key a change
   * took from every product keeps its text, unreachable).
   */
  scanKeys: TextColumn;
  scanAt: Int32Array;
  scanVariant: Int32Array;
  /**
   * The keys' hash table (open addressing, linear probing; a power of two, at most 3/4 full):
   * slot hashKey(key) & (length - 1), or the next free one after it, holds key number + 1; 0 is
   * empty.
   */
  scanSlots: Int32Array;
}

/** FNV-1a over a text's UTF-16 code units: the scan table's hash. */
function hashKey(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The slot holding the key equal to `code`, or -1. */
function slotOf(x: Pick<ScanTable, 'scanKeys' | 'scanSlots'>, code: string): number {
  const slots = x.scanSlots;
  if (!slots.length) return -1;
  const mask = slots.length - 1;
  for (let s = hashKey(code) & mask; ; s = (s + 1) & mask) {
    const k = slots[s] - 1;
    if (k < 0) return -1;
    if (textAt(x.scanKeys, k) === code) return s;
  }
}

/** The number of the scan key equal to `code` (TableIndex.scanKeys), or -1. */
export function findScanKey(x: Pick<ScanTable, 'scanKeys' | 'scanSlots'>, code: string): number {
  const s = slotOf(x, code);
  return s < 0 ? -1 : x.scanSlots[s] - 1;
}


/**
 * The scan keys of rows in id order and their table (TableIndex.scanKeys, scanSlots): every name,
 * then every variant barcode, then every product barcode (trimmed, empty ones left out). Where a
 * key comes more than once the rules of product-index.ts buildScanLookup pick its product: a
 * barcode takes it from a name, the later barcode from the earlier one, and of names only, the
 * first name keeps it. A hash table of the key numbers instead of a Map of 2.9 million strings and
 * their sort at 1M products (~8 of buildTableIndex's 10.5 s in node).
 */
export function scanKeysOf(rows: readonly ProductRow[]): { keys: string[]; scanAt: Int32Array; scanVariant: Int32Array; scanSlots: Int32Array } {
  let entries = 0;
  for (const r of rows) entries += 2 + r[P.variants].length;
  let size = 8;
  while (size * 3 < entries * 4) size *= 2; // at most 3/4 full
  const slots = new Int32Array(size);
  const mask = size - 1;
  const keys: string[] = [];
  const at: number[] = [];
  const vs: number[] = [];
  const put = (key: string | null | undefined, i: number, v: number, override: boolean) => {
    const k = key?.trim();
    if (!k) return;
    for (let s = hashKey(k) & mask; ; s = (s + 1) & mask) {
      const n = slots[s];
      if (n === 0) {
        slots[s] = keys.push(k);
        at.push(i);
        vs.push(v);
        return;
      }
      if (keys[n - 1] === k) {
        if (override) {
          at[n - 1] = i;
          vs[n - 1] = v;
        }
        return;
      }
    }
  };
  for (let i = 0; i < rows.length; i++) put(rows[i][P.name], i, -1, false);
  for (let i = 0; i < rows.length; i++) for (const v of rows[i][P.variants]) put(v[4], i, v[0], true);
  for (let i = 0; i < rows.length; i++) put(rows[i][P.barcode], i, -1, true);
  return { keys, scanAt: Int32Array.from(at), scanVariant: Int32Array.from(vs), scanSlots: slots };
}

/** Puts key number k (its hash h) in the first free slot from its home. */
function place(slots: Int32Array, h: number, k: number): void {
  const mask = slots.length - 1;
  let s = h & mask;
  while (slots[s] !== 0) s = (s + 1) & mask;
  slots[s] = k + 1;
}

/**
 * Empties slot s, moving back the entries after it that may sit there (backward-shift deletion:
 * no tombstones, so a lookup still ends at the first empty slot).
 */
function free(x: Pick<ScanTable, 'scanKeys' | 'scanSlots'>, s: number): void {
  const slots = x.scanSlots;
  const mask = slots.length - 1;
  let hole = s;
  for (let j = (s + 1) & mask; slots[j] !== 0; j = (j + 1) & mask) {
    const home = hashKey(textAt(x.scanKeys, slots[j] - 1)) & mask;
    // The entry at j stays when its home lies cyclically in (hole, j].
    const stays = hole <= j ? hole < home && home <= j : hole < home || home <= j;
    if (!stays) {
      slots[hole] = slots[j];
      hole = j;
    }
  }
  slots[hole] = 0;
}

/** A scan key's product now: [key, position (-1: no product has it any more), variant id (-1: the product)]. */
export type ScanOwner = readonly [string, number, number];

/** The table with these keys' products set anew (new arrays; `x` is left as it was). */
export function setScanKeys(x: ScanTable, owners: readonly ScanOwner[]): ScanTable {
  let scanSlots = x.scanSlots.slice();
  let scanAt = x.scanAt.slice();
  let scanVariant = x.scanVariant.slice();
  const live = { scanKeys: x.scanKeys, scanSlots };
  const added: ScanOwner[] = [];
  for (const owner of owners) {
    const [key, at, variant] = owner;
    const s = slotOf(live, key);
    if (s < 0) {
      if (at >= 0) added.push(owner);
    } else if (at < 0) free(live, s);
    else {
      scanAt[scanSlots[s] - 1] = at;
      scanVariant[scanSlots[s] - 1] = variant;
    }
  }
  if (!added.length) return { scanKeys: x.scanKeys, scanAt, scanVariant, scanSlots };
  const first = x.scanKeys.ends.length;
  const scanKeys = appendTexts(x.scanKeys, added.map((a) => a[0]));
  const grow = (a: Int32Array, get: (o: ScanOwner) => number) => {
    const out = new Int32Array(first + added.length);
    out.set(a);
    added.forEach((o, j) => { out[first + j] = get(o); });
    return out;
  };
  scanAt = grow(scanAt, (o) => o[1]);
  scanVariant = grow(scanVariant, (o) => o[2]);
  let used = added.length;
  for (const v of scanSlots) if (v !== 0) used++;
  if (used * 4 > scanSlots.length * 3) {
    let size = scanSlots.length;
    while (size * 3 < used * 4) size *= 2;
    const bigger = new Int32Array(size);
    for (const v of scanSlots) if (v !== 0) place(bigger, hashKey(textAt(scanKeys, v - 1)), v - 1);
    scanSlots = bigger;
  }
  added.forEach(([key], j) => place(scanSlots, hashKey(key), first + j));
  return { scanKeys, scanAt, scanVariant, scanSlots };
}

/** A row's scan keys, as scanKeysOf meets them: its name, its variants' barcodes (with their ids), its barcode. */
export function rowScanKeys(r: ProductRow): string {
  return JSON.stringify([r[P.name]?.trim() ?? '', r[P.variants].map((v) => [v[0], v[4]?.trim() ?? '']), r[P.barcode]?.trim() ?? '']);
}

/** A row's scan keys, trimmed, empty ones left out. */
export const keysOfRow = (r: ProductRow): string[] => [r[P.name], r[P.barcode], ...r[P.variants].map((v) => v[4])].map((k) => k?.trim() ?? '').filter(Boolean);

/**
 * The product each of `keys` scans now, by scanKeysOf's rules (the last product barcode, else the
 * last variant barcode, else the first name), over the rows in position order: one pass, however
 * many keys.
 */
export function scanOwners(n: number, rowAt: (i: number) => ProductRow, keys: ReadonlySet<string>): ScanOwner[] {
  const byName = new Map<string, number>();
  const byVariant = new Map<string, [number, number]>();
  const byBarcode = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const r = rowAt(i);
    const name = r[P.name]?.trim();
    if (name && keys.has(name) && !byName.has(name)) byName.set(name, i);
    for (const v of r[P.variants]) {
      const code = v[4]?.trim();
      if (code && keys.has(code)) byVariant.set(code, [i, v[0]]);
    }
    const code = r[P.barcode]?.trim();
    if (code && keys.has(code)) byBarcode.set(code, i);
  }
  return [...keys].map((key): ScanOwner => {
    const barcode = byBarcode.get(key);
    if (barcode !== undefined) return [key, barcode, -1];
    const variant = byVariant.get(key);
    if (variant) return [key, variant[0], variant[1]];
    return [key, byName.get(key) ?? -1, -1];
  });
}
