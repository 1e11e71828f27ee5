/**
 * The chunk texts of a catalogue restored from the offline cache, which come after the start
 * (issue 24, warm start at 1,000,000 products). A warm start is ready once the worker
 * has the header and the index columns; the ~300 MB of chunk texts of a million products were read
 * (and copied from the worker) before it, 1-2.5 s of a start, and they are what a product is
 * decoded from (product-table.ts). Now a scan reads its product's chunk at once (one record, a few
 * ms), and every chunk comes after the start, a few at a time: sent by the catalogue worker, which
 * reads them for its deltas anyway (one read of the cache for both), or read here where there is
 * no worker.
 *
 * Texts are only ever added: a chunk a delta replaced or dropped is the table's own (its `texts`
 * come first), and the cache holds, for every other chunk, what the worker restored.
 */
import type { ChunkText } from './product-sync';

/** Reads the chunk texts with from <= key <= to (CacheDb.chunkTexts). */
export type ChunkReader = (from: number, to: number) => Promise<ChunkText[]>;

/** Hands over texts as they are sent (the catalogue worker's, which read them anyway); resolves after the last. */
export type TextFeed = (add: (chunks: ChunkText[]) => void) => Promise<void>;

/** Where a warm start's texts come from: `read` for one chunk now; `sent`, when there is one, for all of them. */
export interface TextSource {
  read: ChunkReader;
  sent?: TextFeed;
}

/** Chunks per read after the start: ~5 MB of text at 1,000,000 products, a few ms of the main thread each. */
export const TEXTS_PER_READ = 16;

export class CachedTexts {
  private readonly got = new Map<number, string>();
  private readonly reading = new Map<number, Promise<void>>();
  private all: Promise<void> | null = null;
  /** Every chunk of the key range has been read. */
  complete = false;

  /** `first`..`last`: the catalogue's chunk keys (chunkOf its smallest and largest id). */
  constructor(private readonly source: TextSource, private readonly first: number, private readonly last: number) {
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

  /**
   * Takes every chunk not read yet: as the worker sends them, or else read TEXTS_PER_READ at a time
   * (once: later calls get the same promise).
   */
  loadAll(): Promise<void> {
    this.all ??= (async () => {
      const { sent } = this.source;
      if (sent) await sent((chunks) => this.add(chunks));
      else for (let from = this.first; from <= this.last; from += TEXTS_PER_READ) await this.take(from, Math.min(this.last, from + TEXTS_PER_READ - 1));
      this.complete = true;
    })();
    return this.all;
  }

  private async take(from: number, to: number): Promise<void> {
    this.add(await this.source.read(from, to));
  }

  private add(chunks: ChunkText[]): void {
    for (const c of chunks) if (!this.got.has(c.key)) this.got.set(c.key, c.json);
  }
}
