import { useSyncExternalStore, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './button';
import { Dialog } from './dialog';

export interface ConfirmOptions {
  /** Dialog title; defaults to "Confirmation". */
  title?: string;
  confirmLabel?: string;
  cancelLabel?: string;
  danger?: boolean;
}

interface Pending extends ConfirmOptions {
  text: ReactNode;
  resolve: (ok: boolean) => void;
}

let pending: Pending | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

/**
 * Ask a yes/no question: `if (await confirm('Delete order?')) …`. Resolves true for "Yes, please",
 * false for "No, wait", Esc or the close button. A second call while one is open answers the first with false.
 */
export function confirm(text: ReactNode, options: ConfirmOptions = {}): Promise<boolean> {
  pending?.resolve(false);
  return new Promise<boolean>((resolve) => {
    pending = { ...options, text, resolve };
    emit();
  });
}

/** Hook form of `confirm`, for components. */
export const useConfirm = () => confirm;

function answer(ok: boolean) {
  const current = pending;
  pending = null;
  emit();
  current?.resolve(ok);
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};
const snapshot = () => pending;

/** Rendered once by AppProviders. */
export function ConfirmHost() {
  const { t } = useTranslation('common');
  const current = useSyncExternalStore(subscribe, snapshot, snapshot);
  return (
    <Dialog
      open={!!current}
      onClose={() => answer(false)}
      title={current?.title ?? t('confirmation')}
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={() => answer(false)}>{current?.cancelLabel ?? t('noWait')}</Button>
          <Button variant={current?.danger ? 'danger' : 'primary'} onClick={() => answer(true)} data-autofocus>
            {current?.confirmLabel ?? t('yesPlease')}
          </Button>
        </>
      }
    >
      <p>{current?.text}</p>
    </Dialog>
  );
}
