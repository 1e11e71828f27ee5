import { useId, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog, type DialogSize } from '@/components/ui/dialog';
import '../backoffice.css';

export interface FormDialogProps {
  open: boolean;
  onClose: () => void;
  title: string;
  onSubmit: (e: FormEvent<HTMLFormElement>) => void;
  saving?: boolean;
  size?: DialogSize;
  submitLabel?: string;
  children: ReactNode;
}

/** A create/update dialog: the form fills the body, Cancel and Save sit in the footer. */
export function FormDialog({ open, onClose, title, onSubmit, saving, size = 'md', submitLabel, children }: FormDialogProps) {
  const { t } = useTranslation('backoffice');
  const formId = useId();
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      size={size}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" form={formId} loading={saving}>
            {submitLabel ?? t('common.save')}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={onSubmit} noValidate className="form-grid">
        {children}
      </form>
    </Dialog>
  );
}
