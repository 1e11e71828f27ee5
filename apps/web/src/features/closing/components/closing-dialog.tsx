export interface ClosingDialogProps {
  open: boolean;
  onClose: () => void;
}

export function ClosingDialog({ open, onClose }: ClosingDialogProps) {
  if (!open) return null;
  return (
    <div role="dialog" aria-modal="true">
      <button type="button" onClick={onClose}>×</button>
    </div>
  );
}
