/**
 * The sale load shared by the API bench (api-bench.ts) and the engine bench (engine-bench.ts): a
 * till's sale body as the reference client builds it, the catalogue the tills sell from, seeded
 * random numbers, and a closed loop of concurrent workers. A sale's products are drawn from the
 * whole catalogue the tills loaded with a Zipf distribution (s = 1: the product of popularity rank k
 * is sold in proportion to 1/k, as in a shop), the ranks spread over the catalogue by a seeded
 * shuffle, so a run touches the hot few and the long tail, not one slice.
 */
import { computeOrderTotals } from '@pos/domain/cart';
import { parseMoney, parseRate, toDecimal } from '@pos/domain/money';
import { request, type Server } from './lib.ts';

export interface Till { user: string; headers: Record<string, string>; storeId: number; terminalId: number }
export interface CachedProduct { obj: Record<string, any>; priceCents: number; taxRates: number[]; variants: Record<string, any>[] }

/** Zipf exponent of the sale draw. */
export const ZIPF_S = 1;
const samplers = new WeakMap<CachedProduct[], (rnd: () => number) => CachedProduct>();

/** A Zipf(s) draw over `products`: cumulative weights 1/k^s, ranks shuffled (seed 42) onto the list. */
export function zipfSampler(products: CachedProduct[], s = ZIPF_S): (rnd: () => number) => CachedProduct {
  const n = products.length;
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let k = 0; k < n; k++) { sum += 1 / (k + 1) ** s; cdf[k] = sum; }
  const order = Array.from({ length: n }, (_, i) => i);
  const shuffle = rng(42);
  for (let i = n - 1; i > 0; i--) { const j = Math.floor(shuffle() * (i + 1)); [order[i], order[j]] = [order[j], order[i]]; }
  return (rnd) => {
    const x = rnd() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (cdf[mid] < x) lo = mid + 1; else hi = mid; }
    return products[order[lo]];
  };
}

/** Builds a sale body exactly like the reference client (2.5a): whole cached objects, 5 lines, cash. */
export function saleBody(products: CachedProduct[], till: Till, cash: Record<string, any>, rnd: () => number) {
  let draw = samplers.get(products);
  if (!draw) { draw = zipfSampler(products); samplers.set(products, draw); }
  const items: Record<string, unknown>[] = [];
  const lines: { priceCents: number; qtyMilli: number; discountCents: number; taxIncluded: boolean; taxRates: number[] }[] = [];
  const used = new Set<number>();
  while (items.length < 5) {
    const p = draw(rnd);
    if (used.has(p.obj.id)) continue;
    used.add(p.obj.id);
    const variant = p.variants.length ? p.variants[Math.floor(rnd() * p.variants.length)] : null;
    const priceCents = variant?.price != null ? parseMoney(variant.price) : p.priceCents;
    const qty = 1 + Math.floor(rnd() * 3);
    items.push({ item: p.obj, variant, quantity: qty, price: toDecimal(priceCents), discount: 0, taxIncluded: true, taxes: p.obj.taxes, stock: 0 });
    lines.push({ priceCents, qtyMilli: qty * 1000, discountCents: 0, taxIncluded: true, taxRates: p.taxRates });
  }
  const totals = computeOrderTotals({ lines, orderTaxRate: null, discount: { kind: 'none' }, adjustmentCents: 0 });
  const received = Math.ceil(totals.totalCents / 1000) * 1000;
  return {
    items, discount: null, tax: null, taxAmount: 0, discountAmount: 0, discountRateType: undefined,
    payments: [{ received: toDecimal(received), total: toDecimal(totals.totalCents), due: 0, type: cash }],
    customer: '', notes: undefined, store: till.storeId, terminal: till.terminalId,
    total: toDecimal(totals.totalCents), adjustment: 0, isSuspended: false, status: 'Completed',
    uuid: crypto.randomUUID(),
  };
}

export function rng(seed: number) {
  let s = seed >>> 0;
  return () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 2 ** 32; };
}

export interface LoadResult { latencies: number[]; ok: number; errors: number; seconds: number; firstError?: string }

/** `workers` loops doing `once()` back to back for `seconds`; latency of each call. */
export async function closedLoop(workers: number, seconds: number, once: (w: number) => Promise<void>): Promise<LoadResult> {
  const latencies: number[] = [];
  let ok = 0;
  let errors = 0;
  let firstError: string | undefined;
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  await Promise.all(Array.from({ length: workers }, async (_, w) => {
    while (performance.now() < end) {
      const s = performance.now();
      try {
        await once(w);
        latencies.push(performance.now() - s);
        ok++;
      } catch (e) {
        errors++;
        firstError ??= String((e as Error).message ?? e).slice(0, 300);
        if (errors > 50 && errors > ok) return;
      }
    }
  }));
  return { latencies, ok, errors, seconds: (performance.now() - t0) / 1000, firstError };
}

/** The tills' catalogue: `pages` pages of 100 spread over the whole list (Infinity: every page, the whole catalogue). */
export async function loadSaleCatalogue(server: Server, headers: Record<string, string>, pages: number): Promise<CachedProduct[]> {
  const out: CachedProduct[] = [];
  const res = await request('GET', `${server.url}/api/products?itemsPerPage=100&page=1&isActive=true`, undefined, headers);
  if (res.status !== 200) throw new Error(`GET /api/products answered ${res.status}: ${res.body.slice(0, 200)}`);
  const first = JSON.parse(res.body);
  const last = Math.max(1, Math.ceil(first['hydra:totalItems'] / 100));
  const count = Math.min(pages, last);
  for (let i = 0; i < count; i++) {
    const page = 1 + Math.floor((i * last) / count);
    const r = await request('GET', `${server.url}/api/products?itemsPerPage=100&page=${page}&isActive=true`, undefined, headers);
    for (const p of JSON.parse(r.body)['hydra:member'] as any[]) {
      if ((p.prices ?? []).length) continue; // keep the client-side total simple: no price rules
      out.push({ obj: p, priceCents: parseMoney(p.basePrice), taxRates: (p.taxes ?? []).map((t: any) => parseRate(t.rate)), variants: p.variants ?? [] });
    }
  }
  if (!out.length) throw new Error(`no product to sell among ${first['hydra:totalItems']}`);
  return out;
}

