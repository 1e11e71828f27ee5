export interface InventoryDialogProps {
  open: boolean;
  onClose: () => void;
}

export function InventoryDialog({ open, onClose }: InventoryDialogProps) {
  if (!open) return null;
  return (
    <div role="dialog" aria-modal="true">
      <button type="button" onClick={onClose}>×</button>
    </div>
  );
}
