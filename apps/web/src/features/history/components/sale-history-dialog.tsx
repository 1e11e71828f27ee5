export interface HistoryOrder {
  id: number;
  [key: string]: unknown;
}

export interface SaleHistoryDialogProps {
  open: boolean;
  onClose: () => void;
  onRefund?: (order: HistoryOrder) => void;
  onReorder?: (order: HistoryOrder) => void;
  onUnsuspend?: (order: HistoryOrder) => void;
}

export function SaleHistoryDialog({ open, onClose }: SaleHistoryDialogProps) {
  if (!open) return null;
  return (
    <div role="dialog" aria-modal="true">
      <button type="button" onClick={onClose}>×</button>
    </div>
  );
}
