/**
 * The index columns (table-index.ts StoredIndex) as records of the productChunks table, none larger
 * than INDEX_PART_BYTES. Chromium refuses to store one value whose serialization passes ~127 MB
 * ("The serialized keys and/or value are too large (size=178895212 bytes, max=133169152 bytes)":
 * the index of 1,000,000 products as one record, measured 2026-11-28), and the whole cache write,
 * one transaction, was aborted: a till of a million products kept nothing for its next start.
 *
 * The index record (INDEX_RECORD) keeps the index's shape and its small values; every column past
 * the limit is cut into slices stored as part records (keys FIRST_INDEX_PART, FIRST_INDEX_PART - 1,
 * ...; chunk keys are >= 0), and the index record names them. Every part carries the index's tag,
 * so a part left from another index is never joined into this one. No IndexedDB here: the page
 * writes the records (cache-db.ts), the worker reads them (sync-protocol.ts).
 */
import type { StoredIndex } from './table-index';

/** Largest column slice in one record (bytes; a text counts two bytes a character). */
export const INDEX_PART_BYTES = 32 * 1024 * 1024;
/** Key of the first part record; the next ones count down. */
export const FIRST_INDEX_PART = -3;

type Part = ArrayBuffer | string;
/** Where a cut column was: the keys of its slices in order. */
interface Cut { cut: 'bytes' | 'text'; parts: number[] }

/** A record of the index: the index record itself (`index`) or a part (`part`); `json` is the index's tag. */
export interface IndexRecord {
  key: number;
  json: string;
  index?: StoredIndex;
  part?: Part;
}

/** An ArrayBuffer of any realm (a structured clone from IndexedDB may come from another one). */
const isBuffer = (v: unknown): v is ArrayBuffer => Object.prototype.toString.call(v) === '[object ArrayBuffer]';
const isCut = (v: unknown): v is Cut => typeof v === 'object' && v !== null && !isBuffer(v) && 'cut' in v && 'parts' in v;

/** The records that store `index` under `tag`: the index record first, then its parts. */
export function indexRecords(indexKey: number, tag: string, index: StoredIndex, limit = INDEX_PART_BYTES): IndexRecord[] {
  const parts: IndexRecord[] = [];
  const add = (part: Part) => {
    const key = FIRST_INDEX_PART - parts.length;
    parts.push({ key, json: tag, part });
    return key;
  };
  const walk = (v: unknown): unknown => {
    if (isBuffer(v)) {
      if (v.byteLength <= limit) return v;
      const keys: number[] = [];
      for (let at = 0; at < v.byteLength; at += limit) keys.push(add(v.slice(at, at + limit)));
      return { cut: 'bytes', parts: keys } satisfies Cut;
    }
    if (typeof v === 'string') {
      const chars = Math.max(1, Math.floor(limit / 2));
      if (v.length <= chars) return v;
      const keys: number[] = [];
      for (let at = 0; at < v.length; at += chars) keys.push(add(v.slice(at, at + chars)));
      return { cut: 'text', parts: keys } satisfies Cut;
    }
    if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  const main: IndexRecord = { key: indexKey, json: tag, index: walk(index) as StoredIndex };
  return [main, ...parts];
}

/**
 * The index stored by indexRecords, put together again from the table's records; undefined when
 * there is none, or a part is missing or belongs to another index (the worker then builds the
 * index from the chunks, as for a cache written before the index was stored).
 */
export function joinIndex(indexKey: number, records: readonly IndexRecord[]): { key: number; json: string; index: StoredIndex } | undefined {
  const main = records.find((r) => r.key === indexKey);
  if (!main?.index) return undefined;
  const byKey = new Map(records.filter((r) => r.key <= FIRST_INDEX_PART).map((r) => [r.key, r]));
  let whole = true;
  const slices = (cut: Cut): Part[] => cut.parts.map((k) => {
    const r = byKey.get(k);
    if (!r || r.json !== main.json || r.part === undefined) { whole = false; return ''; }
    return r.part;
  });
  const walk = (v: unknown): unknown => {
    if (isCut(v)) {
      const got = slices(v);
      if (v.cut === 'text') return got.join('');
      const bytes = new Uint8Array(got.reduce((n, b) => n + (isBuffer(b) ? b.byteLength : 0), 0));
      let at = 0;
      for (const b of got) if (isBuffer(b)) { bytes.set(new Uint8Array(b), at); at += b.byteLength; }
      return bytes.buffer;
    }
    if (isBuffer(v) || typeof v !== 'object' || v === null) return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
  };
  const index = walk(main.index) as StoredIndex;
  return whole ? { key: main.key, json: main.json, index } : undefined;
}
