import { useEffect, useId, useRef, type FormEvent, type ReactNode } from 'react';
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
  /**
   * Render the same form as a page of the back office (a heading, the form, Cancel and Save under
   * it) instead of a modal: the /admin/catalogue/:id and /admin/purchasing/... pages.
   */
  asPage?: boolean;
  /** More classes of the <form> (its own layout rules), next to form-grid. */
  className?: string;
  children: ReactNode;
}

/** A create/update dialog: the form fills the body, Cancel and Save sit in the footer. Or, with asPage, a page. */
export function FormDialog({ open, onClose, title, onSubmit, saving, size = 'md', submitLabel, asPage = false, className, children }: FormDialogProps) {
  const { t } = useTranslation('backoffice');
  const formId = useId();
  const buttons = (
    <>
      <Button variant="secondary" onClick={onClose}>
        {t('common.cancel')}
      </Button>
      <Button type="submit" form={formId} loading={saving}>
        {submitLabel ?? t('common.save')}
      </Button>
    </>
  );
  const form = (
    <form id={formId} onSubmit={onSubmit} noValidate className={className ? `form-grid ${className}` : 'form-grid'}>
      {children}
    </form>
  );
  if (asPage) return <FormPage title={title} form={form} buttons={buttons} />;
  return (
    <Dialog open={open} onClose={onClose} title={title} size={size} footer={buttons}>
      {form}
    </Dialog>
  );
}

/** The page layout of a form: the first [autofocus] field focused once mounted (Preact ignores autoFocus on late mounts). */
function FormPage({ title, form, buttons }: { title: string; form: ReactNode; buttons: ReactNode }) {
  const page = useRef<HTMLElement>(null);
  const headingId = useId();
  useEffect(() => {
    page.current?.querySelector<HTMLElement>('[autofocus],[data-autofocus]')?.focus();
  }, []);
  return (
    <section ref={page} className="form-page" aria-labelledby={headingId}>
      <h1 id={headingId}>{title}</h1>
      {form}
      <div className="form-page__buttons">{buttons}</div>
    </section>
  );
}
