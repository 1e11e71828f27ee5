/** An order as the sale history reads it (reference client section 3 Order). */
export interface HistoryOrderItem {
  id: number;
  product?: { id: number; name: string; cost?: number | string | null } | null;
  variant?: { id: number; attributeValue?: string | null } | null;
  quantity: number | string;
  price: number | string;
  cost?: number | string | null;
  discount?: number | string | null;
  taxesTotal?: number | string | null;
  taxes?: Array<{ id: number; name?: string; rate?: number | string }>;
  /** What of the line is still refundable (issue 19). */
  refundableQuantity?: number | string | null;
  returnedQuantity?: number | string | null;
}

export interface HistoryPayment {
  total: number | string;
  received: number | string;
  due?: number | string;
  type?: { id: number; name: string; type?: string } | null;
}

export interface HistoryOrder {
  '@id'?: string;
  id: number;
  orderId?: number | string | null;
  createdAt: string;
  status: string;
  isReturned?: boolean;
  returnedFrom?: { id: number; orderId?: number | string } | null;
  customer?: { id: number | null; name?: string } | null;
  customerName?: string | null;
  items: HistoryOrderItem[];
  payments: HistoryPayment[];
  discount?: { amount?: number | string | null; type?: { name?: string } | null } | null;
  tax?: { amount?: number | string | null; rate?: number | string | null; type?: { name?: string } | null } | null;
  itemTaxes?: number | string | null;
  adjustment?: number | string | null;
  notes?: string | null;
  store?: { id: number; name: string } | null;
  terminal?: { id: number; code: string } | null;
  user?: { id: number; displayName?: string } | null;
}

export interface HistoryListResponse {
  list: HistoryOrder[];
  total: number;
  payments?: Record<string, number | string>;
}

export const ORDER_STATUS = {
  completed: 'Completed',
  onHold: 'On Hold',
  deleted: 'Deleted',
  dispatched: 'Dispatched',
  pending: 'Pending',
  returned: 'Returned',
  partiallyReturned: 'Partially Returned',
} as const;

export type HistoryAction = 'refund' | 'delete' | 'unsuspend' | 'restore';

/** Row actions by status (reference client 2.5). Refund only for an order that is not itself a return. */
export function actionsFor(order: Pick<HistoryOrder, 'status' | 'returnedFrom' | 'isReturned'>): HistoryAction[] {
  switch (order.status) {
    case ORDER_STATUS.dispatched:
      return ['delete'];
    case ORDER_STATUS.completed:
      return order.returnedFrom || order.isReturned ? ['delete'] : ['refund', 'delete'];
    case ORDER_STATUS.partiallyReturned:
      // Part of it refunded (issue 19): the rest may be refunded too; deleting it would orphan its returns.
      return ['refund'];
    case ORDER_STATUS.onHold:
      return ['unsuspend', 'delete'];
    case ORDER_STATUS.deleted:
      return ['restore'];
    default:
      return [];
  }
}
