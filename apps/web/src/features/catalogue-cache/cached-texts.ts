/**
 * The chunk texts of a catalogue restored from the offline cache, read from the cache as the till
 * needs them (issue 24, warm start at 1,000,000 products). A warm start is ready once the worker
 * has the header and the index columns; the ~300 MB of chunk texts of a million products were read
 * (and copied from the worker) before it, 1-2.5 s of a start, and they are what a product is
 * decoded from (product-table.ts). Now a scan reads its product's chunk at once (one record, a few
 * ms), and every chunk is read after the start, a few at a time, in key order.
 *
 * Texts are only ever added: a chunk a delta replaced or dropped is the table's own (its `texts`
 * come first), and the cache holds, for every other chunk, what the worker restored.
 */
import type { ChunkText } from './product-sync';

/** Reads the chunk texts with from <= key <= to (CacheDb.chunkTexts). */
export type ChunkReader = (from: number, to: number) => Promise<ChunkText[]>;

/** Chunks per read after the start: ~5 MB of text at 1,000,000 products, a few ms of the main thread each. */
export const TEXTS_PER_READ = 16;

export class CachedTexts {
  private readonly got = new Map<number, string>();
  private readonly reading = new Map<number, Promise<void>>();
  private all: Promise<void> | null = null;
  /** Every chunk of the key range has been read. */
  complete = false;

  /** `first`..`last`: the catalogue's chunk keys (chunkOf its smallest and largest id). */
  constructor(private readonly read: ChunkReader, private readonly first: number, private readonly last: number) {
    if (last < first) this.complete = true;
  }

  get(key: number): string | undefined {
    return this.got.get(key);
  }

  keys(): IterableIterator<number> {
    return this.got.keys();
  }

  /** Whether this chunk may still come (not read yet, and in the range). */
  waiting(key: number): boolean {
    return !this.complete && key >= this.first && key <= this.last && !this.got.has(key);
  }

  /** Reads these chunks now (each once, however many ask). */
  async load(keys: Iterable<number>): Promise<void> {
    const waits: Promise<void>[] = [];
    for (const key of new Set(keys)) {
      if (!this.waiting(key)) continue;
      let p = this.reading.get(key);
      if (!p) {
        p = this.take(key, key).finally(() => this.reading.delete(key));
        this.reading.set(key, p);
      }
      waits.push(p);
    }
    await Promise.all(waits);
  }

  /** Reads every chunk not read yet, TEXTS_PER_READ at a time (once: later calls get the same promise). */
  loadAll(): Promise<void> {
    this.all ??= (async () => {
      for (let from = this.first; from <= this.last; from += TEXTS_PER_READ) await this.take(from, Math.min(this.last, from + TEXTS_PER_READ - 1));
      this.complete = true;
    })();
    return this.all;
  }

  private async take(from: number, to: number): Promise<void> {
    for (const c of await this.read(from, to)) if (!this.got.has(c.key)) this.got.set(c.key, c.json);
  }
}
