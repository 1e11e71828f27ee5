import { apiFetch, HttpError } from '@/lib/api-client';

/**
 * Manager approval at the till (issue 21.2). A sale refused for a permission the cashier lacks
 * (403 "…'discount.overLimit'…") can be approved on the same till by a manager's user name and
 * PIN: POST /api/approvals answers a single-use token that the sale is sent again with. The sale
 * history's void, restore and refund ask the same way ('sale.void', 'sale.refund').
 */
export type ApprovablePermission = 'discount.overLimit' | 'price.override' | 'sale.refund' | 'sale.void';
export interface ApprovalNeed { permission: ApprovablePermission; upTo: number | null; message: string }

/** The approval a refused sale needs, or null when the refusal is of another kind. */
export function approvalNeeded(error: unknown): ApprovalNeed | null {
  if (!(error instanceof HttpError) || error.status !== 403) return null;
  const m = /'(discount\.overLimit|price\.override|sale\.refund|sale\.void)'/.exec(error.message);
  if (!m) return null;
  const pct = /of ([\d.]+)% is above/.exec(error.message);
  return { permission: m[1] as ApprovablePermission, upTo: pct ? Number(pct[1]) : null, message: error.message.replace(/^[\w.[\]]+: /, '') };
}

export interface ApprovalAnswer { approval: string; expiresAt: string; approvedBy: { id: number; name: string } }

export function requestApproval(body: { permission: string; username: string; pin: string; store: number; upTo: number | null }) {
  return apiFetch<ApprovalAnswer>('/approvals', { method: 'POST', body: { ...body, upTo: body.upTo ?? undefined } });
}
