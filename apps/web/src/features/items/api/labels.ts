import { apiUrl, HttpError } from '@/lib/api-client';
import { readToken } from '@/lib/cookies';

export const LABEL_LAYOUTS = ['a4-3x8', 'a4-4x10', 'single-50x30', 'single-58x40'] as const;
export type LabelLayoutName = (typeof LABEL_LAYOUTS)[number];

export interface LabelsRequest {
  store: number;
  layout: LabelLayoutName;
  items?: Array<{ product: number; variant?: number; copies: number }>;
  /** ISO 8601: one label per item whose price changed since then. */
  priceChangedSince?: string;
  /** A received purchase: one label per unit of each of its lines. */
  purchase?: number;
}

/** POST /api/labels: the PDF sheet as a Blob (refusals as HttpError, with the field named). */
export async function fetchLabels(body: LabelsRequest): Promise<Blob> {
  const token = readToken();
  const res = await fetch(apiUrl('/labels'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/pdf, application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
    credentials: 'same-origin',
  });
  if (res.ok) return res.blob();
  const data = await res.json().catch(() => ({}));
  throw new HttpError({
    status: res.status, statusText: res.statusText, code: data.code, message: data.message, errorMessage: data.errorMessage ?? null,
    violations: Array.isArray(data.violations) ? data.violations : [], body: data,
  });
}
