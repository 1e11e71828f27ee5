import { Suspense, lazy } from 'react';
import type { Order } from '@/features/catalogue-cache/types';
import type { LoadKind } from '@/features/cart/load-order';

// Dialogs a first sale does not need download on first use (issue 24: the till's JavaScript); the
// service worker precaches them for the offline till. useOpened keeps one mounted once opened.
export const CustomersDialog = lazy(() => import('@/features/customers/components/customers-dialog').then((m) => ({ default: m.CustomersDialog })));
export const CustomerPaymentsDialog = lazy(() => import('@/features/customers/components/customer-payments-dialog').then((m) => ({ default: m.CustomerPaymentsDialog })));
export const HelpModal = lazy(() => import('@/features/help/components/help-modal').then((m) => ({ default: m.HelpModal })));
export const ItemDetailDialog = lazy(() => import('@/features/item-search/components/item-detail-dialog').then((m) => ({ default: m.ItemDetailDialog })));
export const OrderDetailDialog = lazy(() => import('@/features/orders/components/order-detail-dialog').then((m) => ({ default: m.OrderDetailDialog })));
export const RefundDialog = lazy(() => import('@/features/orders/components/refund-dialog').then((m) => ({ default: m.RefundDialog })));
export const ReceiptPreviewDialog = lazy(() => import('@/features/receipt/components/receipt-preview-dialog').then((m) => ({ default: m.ReceiptPreviewDialog })));
export const RunningOrdersScreen = lazy(() => import('@/features/running-orders/components/running-orders-screen').then((m) => ({ default: m.RunningOrdersScreen })));
export const DiscountsDialog = lazy(() => import('@/features/cart/components/discounts-dialog').then((m) => ({ default: m.DiscountsDialog })));
export const TaxesDialog = lazy(() => import('@/features/cart/components/taxes-dialog').then((m) => ({ default: m.TaxesDialog })));
export const ModeSelectorDialog = lazy(() => import('@/features/sale/components/mode-selector-dialog').then((m) => ({ default: m.ModeSelectorDialog })));
export const OrderLookupDialog = lazy(() => import('@/features/orders/components/order-lookup-dialog').then((m) => ({ default: m.OrderLookupDialog })));

// The back office's dialogs download on first use.
export const SettingsModal = lazy(() => import('@/features/settings/components/settings-modal').then((m) => ({ default: m.SettingsModal })));
export const InventoryDialog = lazy(() => import('@/features/inventory/components/inventory-dialog').then((m) => ({ default: m.InventoryDialog })));
export const ExpensesDialog = lazy(() => import('@/features/expenses/components/expenses-dialog').then((m) => ({ default: m.ExpensesDialog })));
export const ClosingDialog = lazy(() => import('@/features/closing/components/closing-dialog').then((m) => ({ default: m.ClosingDialog })));
export const SaleHistoryDialog = lazy(() => import('@/features/history/components/sale-history-dialog').then((m) => ({ default: m.SaleHistoryDialog })));

// The on-screen keyboard (touch mode) is another feature's; it is mounted here when it exists.
const touchModules = import.meta.glob<{ TouchKeyboard: (p: { enabled: boolean }) => React.ReactNode }>('/src/features/touch/components/touch-keyboard.tsx');
const touchLoader = Object.values(touchModules)[0];
export const TouchKeyboard = touchLoader ? lazy(() => touchLoader().then((m) => ({ default: m.TouchKeyboard }))) : null;

export type DialogId = 'itemSearch' | 'taxes' | 'discounts' | 'customers' | 'help' | 'mode' | 'lookup' | 'settings' | 'inventory' | 'expenses' | 'closing' | 'history';

/** The back office's dialogs opened from the till's toolbar, and the touch keyboard. */
export function BackOfficeDialogs({ dialog, touch, onClose, onLoad, onReceipt, onSaved, onRefundLines, onUnsuspend }: {
  dialog: DialogId | null;
  touch: boolean;
  onClose: () => void;
  onLoad: (order: Order, kind: LoadKind) => void;
  onReceipt: (order: Order) => void;
  onSaved: () => void;
  onRefundLines: (orderId: number) => void;
  onUnsuspend: (order: Order) => void;
}) {
  return (
    <Suspense fallback={null}>
      {TouchKeyboard && touch && <TouchKeyboard enabled />}
      {dialog === 'settings' && <SettingsModal open onClose={onClose} />}
      {dialog === 'inventory' && <InventoryDialog open onClose={onClose} />}
      {dialog === 'expenses' && <ExpensesDialog open onClose={onClose} />}
      {/* Mounted all the time: it opens itself, forced, when the day has not been started. */}
      <ClosingDialog open={dialog === 'closing'} onClose={onClose} />
      {dialog === 'history' && (
        <SaleHistoryDialog
          open
          onClose={onClose}
          // The dialog has already POSTed the refund: the server's return order is recorded (stock back),
          // so the till shows its receipt; only without one does it load the negated lines to settle.
          onRefund={(o, refund) => {
            onClose();
            if (refund) onReceipt(refund as unknown as Order);
            else onLoad(o as unknown as Order, 'refund');
            onSaved();
          }}
          // Refund opens the refund dialog (issue 19): the order read again, so its refundable quantities are current.
          onRefundLines={(o) => { onClose(); onRefundLines(o.id); }}
          onReorder={(o) => { onClose(); onLoad(o as unknown as Order, 'reorder'); }}
          // The dialog has already deleted the held order.
          onUnsuspend={(o) => { onClose(); onUnsuspend(o as unknown as Order); }}
          onPrint={(o) => onReceipt(o as unknown as Order)}
        />
      )}
    </Suspense>
  );
}
