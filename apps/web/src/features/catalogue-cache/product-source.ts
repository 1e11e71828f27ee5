/**
 * Main-thread side of the catalogue sync: asks the catalogue worker for products (from the
 * offline cache or the server) and writes the cache chunks it hands back. The worker does the
 * fetching, parsing and decoding; here only IndexedDB writes of a few large strings remain.
 * Without Worker support (jsdom) the same ProductSync runs in-thread.
 */
import { apiUrl, HttpError, NetworkError, SESSION_EXPIRED_EVENT } from '@/lib/api-client';
import { readToken } from '@/lib/cookies';
import { getSession } from '@/lib/session';
import { HEADER_KEY, type CacheDb } from './cache-db';
import { ProductSync, handleSyncRequest, type PersistPlan, type ProductUpdate, type SyncReply, type SyncRequest } from './product-sync';
import type { Product } from './types';

/** Where the loader gets products from (an interface so the loading sequence can be tested alone). */
export interface ProductSource {
  /** The cached catalogue of this user, or null when there is none. */
  fromCache(): Promise<Product[] | null>;
  /** Asks the server: the whole catalogue the first time, then what changed since the last answer. */
  sync(): Promise<ProductUpdate>;
}

type Pending = (reply: SyncReply) => void;
type Unsent = SyncRequest extends infer T ? (T extends unknown ? Omit<T, 'id'> : never) : never;

export class WorkerProductSource implements ProductSource {
  private worker: Worker | null = null;
  private local: ProductSync | null = null;
  private seq = 0;
  private waiting = new Map<number, Pending>();
  private batches = new Map<number, Product[][]>();
  /** Cache writes run one after the other, in the order of the answers. */
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: CacheDb,
    private readonly opts: { url?: string; userId?: () => number | null; token?: () => string | null; fetch?: typeof fetch } = {},
  ) {
    if (typeof Worker !== 'undefined' && !opts.fetch) {
      try {
        this.worker = new Worker(new URL('./catalogue.worker.ts', import.meta.url), { type: 'module' });
        this.worker.onmessage = (e: MessageEvent<SyncReply>) => {
          const reply = e.data;
          if (reply.type === 'batch') {
            // Copied on arrival (the worker decodes the next batch meanwhile), joined at the end.
            const list = this.batches.get(reply.id);
            if (list) list.push(reply.products);
            else this.batches.set(reply.id, [reply.products]);
            return;
          }
          const batches = this.batches.get(reply.id);
          this.batches.delete(reply.id);
          if (batches && reply.type === 'update' && reply.update) reply.update.products = batches.flat();
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

  async fromCache(): Promise<Product[] | null> {
    // The worker reads and decodes the cache itself; only finished products come back.
    const reply = await this.request({ type: 'restore-idb', dbName: this.db.name });
    if (reply.type !== 'update' || !reply.update) return null;
    // Another user's catalogue: not shown (the next sync, a full one, replaces it in the worker).
    if (reply.userId !== this.userId()) return null;
    return reply.update.products;
  }

  async sync(): Promise<ProductUpdate> {
    const token = this.opts.token ? this.opts.token() : readToken();
    const reply = await this.request({ type: 'sync', url: this.opts.url ?? apiUrl('/catalogue/sync'), token: token ?? null, userId: this.userId() });
    if (reply.type === 'error') {
      if (reply.status === null) throw new NetworkError(new Error(reply.message));
      const error = new HttpError({ status: reply.status, message: reply.message });
      // As apiFetch does: a 401 with a token means the session is over.
      if (reply.status === 401 && token && typeof window !== 'undefined') window.dispatchEvent(new CustomEvent(SESSION_EXPIRED_EVENT, { detail: error }));
      throw error;
    }
    if (reply.type !== 'update' || !reply.update) throw new Error('The catalogue worker gave no update');
    const update = reply.update;
    if (update.persist) this.persist(update.persist);
    return update;
  }

  /** Resolves once every cache write asked so far is done (tests, and before a reload). */
  flushed(): Promise<void> {
    return this.writes;
  }

  private persist(plan: PersistPlan) {
    const db = this.db;
    this.writes = this.writes.then(() => db.transaction('rw', db.productChunks, async () => {
      if (plan.replaceAll) await db.productChunks.clear();
      if (plan.drop.length) await db.productChunks.bulkDelete(plan.drop);
      await db.productChunks.bulkPut([...plan.chunks, { key: HEADER_KEY, json: plan.header }]);
    })).catch(() => {
      /* storage full or blocked: the till still sells from memory; the next start loads again */
    });
  }

  /** Forgets the catalogue held in memory (after "Refresh Browser Cache" the next sync is a full one). */
  async reset(): Promise<void> {
    await this.request({ type: 'reset' });
  }
}
