/**
 * Main-thread side of the catalogue sync: asks the catalogue worker for products (from the
 * offline cache or the server) and writes the cache chunks it hands back. The worker does the
 * fetching, parsing and indexing; here only IndexedDB writes of a few large strings remain (the
 * till decodes products from the same chunk texts when it needs them, product-table.ts).
 * Without Worker support (jsdom) the same ProductSync runs in-thread.
 */
import { apiUrl, HttpError, NetworkError, SESSION_EXPIRED_EVENT } from '@/lib/api-client';
import { readToken } from '@/lib/cookies';
import { getSession } from '@/lib/session';
import { HEADER_KEY, INDEX_KEY, type CacheDb, type ProductChunk } from './cache-db';
import type { TextFeed, TextSource } from './cached-texts';
import { ProductSync, type ProductUpdate } from './product-sync';
import { handleSyncRequest, type SyncReply, type SyncRequest, type TextsMessage } from './sync-protocol';
import { INDEX_PART_BYTES, indexRecords } from './index-parts';
import { packIndex } from './table-index';

/** Where the loader gets products from (an interface so the loading sequence can be tested alone). */
export interface ProductSource {
  /** The cached catalogue of this user (a full update), or null when there is none. */
  fromCache(): Promise<ProductUpdate | null>;
  /** Asks the server: the whole catalogue the first time, then what changed since the last answer. */
  sync(): Promise<ProductUpdate>;
  /** The chunk texts of a catalogue that came from the cache without them (cached-texts.ts). */
  cachedTexts?: TextSource;
}

type Pending = (reply: SyncReply) => void;
type Unsent = SyncRequest extends infer T ? (T extends unknown ? Omit<T, 'id'> : never) : never;

export class WorkerProductSource implements ProductSource {
  private worker: Worker | null = null;
  private local: ProductSync | null = null;
  private seq = 0;
  private waiting = new Map<number, Pending>();
  /** The cache read started ahead of the till's first render (prefetch), not yet taken. */
  private early: Promise<SyncReply> | null = null;
  /** Cache writes run one after the other, in the order of the answers. */
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: CacheDb,
    private readonly opts: {
      url?: string; userId?: () => number | null; token?: () => string | null; fetch?: typeof fetch;
      /** Largest index column slice per record (index-parts.ts; tests make it small). */
      indexPartBytes?: number;
    } = {},
  ) {
    if (typeof Worker !== 'undefined' && !opts.fetch) {
      try {
        this.worker = new Worker(new URL('./catalogue.worker.ts', import.meta.url), { type: 'module' });
        this.worker.onmessage = (e: MessageEvent<SyncReply | TextsMessage>) => {
          const reply = e.data;
          if (reply.type === 'texts') return this.textsCame(reply);
          const done = this.waiting.get(reply.id);
          this.waiting.delete(reply.id);
          done?.(reply);
        };
      } catch {
        this.worker = null;
      }
    }
    if (!this.worker) this.local = new ProductSync();
  }

  private userId(): number | null {
    return this.opts.userId ? this.opts.userId() : (getSession().user?.id ?? null);
  }

  private request(msg: Unsent): Promise<SyncReply> {
    const full = { ...msg, id: ++this.seq } as SyncRequest;
    if (this.local) return handleSyncRequest(this.local, full, this.opts.fetch ?? fetch);
    return new Promise((resolve) => {
      this.waiting.set(full.id, resolve);
      this.worker!.postMessage(full);
    });
  }

  /**
   * Starts reading the offline cache now (called before the app renders, on a start at /pos), so
   * the worker's IndexedDB read and parse overlap the page's own start; fromCache takes the answer.
   */
  prefetch(): void {
    this.early ??= this.request({ type: 'restore-idb', dbName: this.db.name });
  }

  async fromCache(): Promise<ProductUpdate | null> {
    // The worker reads the cache itself; the index columns come back (the chunk texts too when it
    // had no index to restore; otherwise they come after: cachedTexts).
    const pending = this.early;
    this.early = null;
    const reply = await (pending ?? this.request({ type: 'restore-idb', dbName: this.db.name }));
    // Another user's catalogue is not shown (the next sync, a full one, replaces it in the worker):
    // the texts the worker sends for it are dropped.
    const used = reply.type === 'update' && !!reply.update && reply.userId === this.userId();
    this.textsWanted = used && reply.type === 'update' && !!reply.update?.textsInCache;
    if (!this.textsWanted) this.texts = [];
    if (!used || reply.type !== 'update' || !reply.update) return null;
    // A cache without its index record (an older version's): the worker built it, keep it for the next start.
    if (reply.update.persist) this.persist(reply.update);
    return reply.update;
  }

  async sync(): Promise<ProductUpdate> {
    const token = this.opts.token ? this.opts.token() : readToken();
    const reply = await this.request({ type: 'sync', url: this.opts.url ?? apiUrl('/catalogue/sync'), token: token ?? null, userId: this.userId() });
    if (reply.type === 'error') {
      if (reply.status === null) throw new NetworkError(new Error(reply.message));
      const error = new HttpError({ status: reply.status, message: reply.message, code: reply.code, retryAfter: reply.retryAfter });
      // As apiFetch does: a 401 with a token means the session is over.
      if (reply.status === 401 && token && typeof window !== 'undefined') window.dispatchEvent(new CustomEvent(SESSION_EXPIRED_EVENT, { detail: error }));
      throw error;
    }
    if (reply.type !== 'update' || !reply.update) throw new Error('The catalogue worker gave no update');
    const update = reply.update;
    if (update.persist) this.persist(update);
    return update;
  }

  /** A warm start's texts: one chunk read from the cache now; all of them as the worker sends them (in-thread: read). */
  get cachedTexts(): TextSource {
    return { read: (from, to) => this.db.chunkTexts(from, to), sent: this.worker ? this.sentTexts : undefined };
  }

  /** The texts the worker sent and no one took yet, and who takes the next. */
  private texts: TextsMessage[] = [];
  private takeTexts: ((m: TextsMessage) => void) | null = null;
  /** Whether the cached catalogue they belong to is the one shown (null: not known yet, kept meanwhile). */
  private textsWanted: boolean | null = null;

  private textsCame(m: TextsMessage) {
    if (this.textsWanted === false) return;
    if (this.takeTexts) this.takeTexts(m);
    else this.texts.push(m);
  }

  private readonly sentTexts: TextFeed = (add) => new Promise((resolve) => {
    const take = (m: TextsMessage) => {
      add(m.chunks);
      if (!m.done) return;
      this.takeTexts = null;
      resolve();
    };
    const early = this.texts.splice(0);
    for (const m of early) take(m);
    if (!early.some((m) => m.done)) this.takeTexts = take;
  });

  /** Resolves once every cache write asked so far is done (tests, and before a reload). */
  flushed(): Promise<void> {
    return this.writes;
  }

  private persist({ persist, chunks, drop, index }: ProductUpdate) {
    if (!persist) return;
    const db = this.db;
    const records: ProductChunk[] = [{ key: HEADER_KEY, json: persist.header }];
    if (persist.chunks) records.push(...chunks);
    // The index record carries the header's tag: a warm start uses it only with that header.
    // The index record and its parts (index-parts.ts: no record past the browser's largest value).
    if (persist.index && index) {
      const tag = (JSON.parse(persist.header) as { indexTag?: string }).indexTag ?? '';
      records.push(...indexRecords(INDEX_KEY, tag, packIndex(index), this.opts.indexPartBytes ?? INDEX_PART_BYTES));
    }
    this.writes = this.writes.then(() => db.writeChunks(records, { replaceAll: persist.replaceAll, drop: persist.chunks ? drop : [] })).catch(() => {
      /* storage full or blocked: the till still sells from memory; the next start loads again */
    });
  }

  /** Forgets the catalogue held in memory (after "Refresh Browser Cache" the next sync is a full one). */
  async reset(): Promise<void> {
    await this.request({ type: 'reset' });
  }
}
