export interface ExpensesDialogProps {
  open: boolean;
  onClose: () => void;
}

export function ExpensesDialog({ open, onClose }: ExpensesDialogProps) {
  if (!open) return null;
  return (
    <div role="dialog" aria-modal="true">
      <button type="button" onClick={onClose}>×</button>
    </div>
  );
}
