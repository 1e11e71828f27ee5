import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { apiGet, apiPost } from '@/features/list-table/api/http';
import type { PrintJob } from '@/features/receipt/api/network-print';
import type { Adjustment, PickedItem, ProductRef, StockCount, Transfer, VariantRef } from '../lib/types.ts';

/** The stock operations' API (docs/api.md "Stock operations"): lists page by limit/offset and answer {list, total}. */
export const STOCK = '/admin/stock';
export const stockKeys = {
  transfers: [`${STOCK}/transfer`] as const,
  transfer: (id: number) => [`${STOCK}/transfer`, id] as const,
  counts: [`${STOCK}/count`] as const,
  count: (id: number) => [`${STOCK}/count`, id] as const,
  adjustments: [`${STOCK}/adjustment`] as const,
};

/** The list table's page/itemsPerPage as the stock lists' limit/offset (other filters pass through). */
export function stockListFetcher(url: string, params: URLSearchParams) {
  const out = new URLSearchParams();
  const size = Number(params.get('itemsPerPage') ?? 10) || 10;
  const page = Number(params.get('page') ?? 1) || 1;
  for (const [k, v] of params) if (k !== 'page' && k !== 'itemsPerPage' && !k.startsWith('order[')) out.append(k, v);
  out.set('limit', String(size));
  out.set('offset', String((page - 1) * size));
  return apiGet(url, out);
}

export const useTransfer = (id: number) =>
  useQuery({ queryKey: stockKeys.transfer(id), queryFn: async () => (await apiGet<{ transfer: Transfer }>(`${STOCK}/transfer/${id}`)).transfer });

/** A count's lines change while people scan on other tablets: re-read every few seconds while it is open. */
export const COUNT_REFRESH_MS = 4000;
export const useCount = (id: number) =>
  useQuery({
    queryKey: stockKeys.count(id),
    queryFn: async () => (await apiGet<{ count: StockCount }>(`${STOCK}/count/${id}`)).count,
    refetchInterval: (q) => (q.state.data?.status === 'open' ? COUNT_REFRESH_MS : false),
  });

export const useAdjustment = (id: number) =>
  useQuery({ queryKey: [...stockKeys.adjustments, id], queryFn: async () => (await apiGet<{ adjustment: Adjustment }>(`${STOCK}/adjustment/${id}`)).adjustment });

export interface TransferBody { fromStore: number; toStore: number; note?: string; lines: { product: number; variant?: number | null; quantity: string }[] }
export interface StepLine { id: number; quantity: string }
export interface CountBody { store: number; scope: string; scopeId?: number | null; location?: string; note?: string }
export interface AdjustmentBody { store: number; note?: string; lines: { product: number; variant?: number | null; quantity: string; reason: string; note?: string }[] }

/** A transfer step (send, receive, cancel): the answer refreshes its page and the list. */
export function useTransferStep(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ step, body }: { step: 'send' | 'receive' | 'cancel'; body?: { lines?: StepLine[]; lossReason?: string } }) =>
      apiPost<{ transfer: Transfer }>(`${STOCK}/transfer/${id}/${step}`, body ?? {}),
    onSuccess: async (res) => {
      client.setQueryData(stockKeys.transfer(id), res.transfer);
      await client.invalidateQueries({ queryKey: [...stockKeys.transfers, 'list'] });
    },
  });
}

export const createTransfer = (body: TransferBody) => apiPost<{ transfer: Transfer }>(`${STOCK}/transfer/create`, body);
export const createCount = (body: CountBody) => apiPost<{ count: StockCount }>(`${STOCK}/count/create`, body);
export const createAdjustment = (body: AdjustmentBody) => apiPost<{ adjustment: Adjustment }>(`${STOCK}/adjustment/create`, body);

/** Scans of a count: a barcode or a product with a quantity; they add up per product on the server. */
export const addCountLines = (id: number, lines: { barcode?: string; product?: number; quantity: string }[]) =>
  apiPost<{ count: StockCount }>(`${STOCK}/count/${id}/lines`, { lines });

export function useCountStep(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (step: 'approve' | 'cancel') => apiPost<{ count: StockCount }>(`${STOCK}/count/${id}/${step}`, {}),
    onSuccess: async (res) => {
      client.setQueryData(stockKeys.count(id), res.count);
      await client.invalidateQueries({ queryKey: [...stockKeys.counts, 'list'] });
    },
  });
}

/** POST /api/print/transfer/{id} {device}: the packing list on a network printer; the answer carries the first attempt. */
export const printPackingList = (id: number, device: number) => apiFetch<PrintJob>(`/print/transfer/${id}`, { method: 'POST', body: { device } });

interface ProductWire extends ProductRef { variants?: VariantRef[]; manageInventory?: boolean }

/** The product (and variant) a scanned barcode names: GET /api/products?barcode= matches products and variants exactly. */
export async function findByBarcode(code: string): Promise<PickedItem | null> {
  const body = await apiGet<{ 'hydra:member'?: ProductWire[] }>('/products', { barcode: code, page: 1, itemsPerPage: 2 });
  const p = body?.['hydra:member']?.[0];
  if (!p) return null;
  const variant = p.barcode === code ? null : (p.variants ?? []).find((v) => v.barcode === code) ?? null;
  return { product: { id: p.id, name: p.name, sku: p.sku, barcode: p.barcode }, variant, variants: p.variants ?? [] };
}
