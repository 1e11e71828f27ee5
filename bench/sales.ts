/**
 * The sale load shared by the API bench (api-bench.ts) and the engine bench (engine-bench.ts): a
 * till's sale body as the reference client builds it, the catalogue the tills sell from, seeded
 * random numbers, and a closed loop of concurrent workers.
 */
import { computeOrderTotals } from '@pos/domain/cart';
import { parseMoney, parseRate, toDecimal } from '@pos/domain/money';
import { request, type Server } from './lib.ts';

export interface Till { user: string; headers: Record<string, string>; storeId: number; terminalId: number }
export interface CachedProduct { obj: Record<string, any>; priceCents: number; taxRates: number[]; variants: Record<string, any>[] }

/** Builds a sale body exactly like the reference client (2.5a): whole cached objects, 5 lines, cash. */
export function saleBody(products: CachedProduct[], till: Till, cash: Record<string, any>, rnd: () => number) {
  const items: Record<string, unknown>[] = [];
  const lines: { priceCents: number; qtyMilli: number; discountCents: number; taxIncluded: boolean; taxRates: number[] }[] = [];
  const used = new Set<number>();
  while (items.length < 5) {
    const p = products[Math.floor(rnd() * products.length)];
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

export async function loadSaleCatalogue(server: Server, headers: Record<string, string>, pages: number): Promise<CachedProduct[]> {
  const out: CachedProduct[] = [];
  const first = JSON.parse((await request('GET', `${server.url}/api/products?itemsPerPage=100&page=1&isActive=true`, undefined, headers)).body);
  const last = Math.max(1, Math.ceil(first['hydra:totalItems'] / 100));
  for (let i = 0; i < pages; i++) {
    const page = 1 + Math.floor((i * last) / pages);
    const r = await request('GET', `${server.url}/api/products?itemsPerPage=100&page=${page}&isActive=true`, undefined, headers);
    for (const p of JSON.parse(r.body)['hydra:member'] as any[]) {
      if ((p.prices ?? []).length) continue; // keep the client-side total simple: no price rules
      out.push({ obj: p, priceCents: parseMoney(p.basePrice), taxRates: (p.taxes ?? []).map((t: any) => parseRate(t.rate)), variants: p.variants ?? [] });
    }
  }
  return out;
}

