import { describe, expect, it } from 'vitest';
import { FLAG_ACTIVE, SYNC_FORMAT, type ProductRow, type SyncPayload } from '@pos/domain/catalogue-sync';
import { mulberry32 } from '@pos/domain/seeded-random';
import { ProductSync } from './product-sync';
import { LineReader, readFullAnswer } from './sync-lines';
import { handleSyncRequest } from './sync-protocol';

const dict: SyncPayload['dict'] = {
  taxes: [[1, 'VAT', 16, true]], categories: [[3, 'Shirts "products":[', 'product', true]], brands: [[2, 'Acme', true]],
  suppliers: [], terminals: [], departments: [], stores: [[1, 'Main Street', null]],
};
/** Names a shop has: Arabic with harakat, quotes, commas, a newline typed into a name, brackets, the array's own opening. */
const NAMES = ['حليب طازج', 'عَسَل', 'Café "Noir", 1kg', 'Line\nbreak', '[12, "x"]', '"products":[\n', 'Crème brûlée', 'Plain'];
const row = (id: number, name: string): ProductRow => [id, name, `2000${id}`, null, 1.25, null, 'pcs', 'pcs', FLAG_ACTIVE, 1, null, null, [1], [3], [2], [], [], [], [], [[id, 1, '3', 'Rack, 4', null]]];
/** Ids across several cache chunks (1,024 ids each), with gaps. */
const IDS = [1, 2, 5, 1023, 1024, 1025, 2047, 2048, 4096, 5000, 5001, 9999];
const rows = IDS.map((id, i) => row(id, NAMES[i % NAMES.length]));
const payload = (products: ProductRow[]): SyncPayload => ({ format: SYNC_FORMAT, full: true, cursor: '1700000000000', userId: 7, dict, removed: [], products });

/**
 * The answer as the server writes it (catalogue-sync.routes.ts): the head up to the products, one
 * product per line, the array's end and the caller's id last. PostgreSQL writes `, ` between values.
 */
function serverText(products: ProductRow[]): string {
  const { products: _p, userId, ...head } = payload(products);
  const lines = products.map((r) => JSON.stringify(r).replaceAll(/,(?=[[\d"n-])/g, ', '));
  const body = lines.length ? `\n${lines.join(',\n')}\n` : '\n';
  return `${JSON.stringify(head).slice(0, -1)},"products":[${body}],"userId":${userId}}`;
}

function readInPieces(text: string, sizes: () => number) {
  const reader = new LineReader();
  for (let i = 0; i < text.length;) {
    const n = Math.max(1, sizes());
    reader.push(text.slice(i, i + n));
    i += n;
  }
  return reader.end();
}

describe('a full catalogue read line by line (sync-lines.ts)', () => {
  it('gives the payload JSON.parse gives, whatever pieces the text arrives in, and chunk texts that hold the same rows', () => {
    const text = serverText(rows);
    expect(JSON.parse(text)).toEqual(payload(rows)); // the server's layout is one JSON text
    const random = mulberry32(24);
    for (const sizes of [() => 1, () => 7, () => 1 + Math.floor(random() * 300), () => text.length]) {
      const read = readInPieces(text, sizes);
      expect(read.payload).toEqual(JSON.parse(text));
      expect(read.chunks?.map((c) => c.key)).toEqual([0, 1, 2, 4, 9]);
      expect(read.chunks!.flatMap((c) => JSON.parse(c.json) as ProductRow[])).toEqual(rows);
    }
  });

  it('makes the same till catalogue as the answer parsed whole: columns, chunks and what the cache keeps', () => {
    const text = serverText(rows);
    const read = readInPieces(text, () => 64);
    const byLines = new ProductSync().apply(read.payload, read.chunks);
    const whole = new ProductSync().apply(JSON.parse(text) as SyncPayload);
    expect(byLines.index).toEqual(whole.index);
    expect(byLines.chunks.map((c) => [c.key, JSON.parse(c.json)])).toEqual(whole.chunks.map((c) => [c.key, JSON.parse(c.json)]));
    expect(byLines.persist).toEqual(whole.persist);
    // The chunks kept are the lines as they came: restored from them, the same index.
    const restored = new ProductSync().restore(byLines.persist!.header, byLines.chunks)!;
    expect(restored.index).toEqual(whole.index);
  });

  it('reads an empty catalogue, and an answer in any other layout whole', () => {
    const empty = readInPieces(serverText([]), () => 5);
    expect(empty.payload).toEqual(payload([]));
    const other = JSON.stringify({ ...payload(rows) });
    const read = readInPieces(other, () => 100);
    expect(read.chunks).toBeNull();
    expect(read.payload).toEqual(payload(rows));
  });

  it('leaves the chunks to ProductSync when the ids do not come in order (and the catalogue is still whole and sorted)', () => {
    const shuffled = [rows[3], rows[0], ...rows.slice(4), rows[1], rows[2]];
    const read = readInPieces(serverText(shuffled), () => 50);
    expect(read.chunks).toBeNull();
    const update = new ProductSync().apply(read.payload, read.chunks);
    expect(Array.from(update.index!.ids)).toEqual(IDS);
  });

  it('fails on an answer cut short, whether between two products or inside one', () => {
    const text = serverText(rows);
    const afterALine = text.indexOf('\n', text.indexOf('\n') + 1) + 1;
    expect(() => readInPieces(text.slice(0, afterALine), () => 10)).toThrow();
    expect(() => readInPieces(text.slice(0, afterALine + 20), () => 10)).toThrow();
    expect(() => readInPieces(text.slice(0, -1), () => 10)).toThrow();
  });

  it('reads the bytes of a fetch answer as they stream, a character split across two pieces included', async () => {
    const bytes = new TextEncoder().encode(serverText(rows));
    const cut = [3, 50, 51, 333, bytes.indexOf(0xd8) + 1, bytes.length - 2].sort((a, b) => a - b);
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        let from = 0;
        for (const at of cut) { c.enqueue(bytes.slice(from, at)); from = at; }
        c.enqueue(bytes.slice(from));
        c.close();
      },
    });
    const read = await readFullAnswer(new Response(body));
    expect(read.payload).toEqual(payload(rows));
    expect(read.chunks).not.toBeNull();
    // Through the worker's request handler: a full sync is read so; the update is the catalogue.
    const fetchImpl = (async () => new Response(serverText(rows), { headers: { 'content-type': 'application/json' } })) as typeof fetch;
    const reply = await handleSyncRequest(new ProductSync(), { id: 1, type: 'sync', url: '/api/catalogue/sync', token: null, userId: 7 }, fetchImpl);
    expect(reply.type === 'update' && Array.from(reply.update!.index!.ids)).toEqual(IDS);
  });
});
