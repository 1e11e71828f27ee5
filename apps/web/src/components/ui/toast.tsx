import { useSyncExternalStore, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export type ToastType = 'success' | 'error' | 'info' | 'warning';
export type ToastPlacement = 'top-left' | 'top' | 'top-right' | 'bottom-left' | 'bottom' | 'bottom-right';

export interface ToastOptions {
  /** Defaults to the upper-cased type (spec 9): "ERROR", "SUCCESS"… */
  title?: string;
  /** Milliseconds; default 2000. 0 keeps it until closed. */
  duration?: number;
  placement?: ToastPlacement;
}

export interface ToastItem extends Required<Omit<ToastOptions, 'title'>> {
  id: number;
  type: ToastType;
  title?: string;
  message: ReactNode;
}

export const TOAST_DEFAULTS = { duration: 2000, placement: 'bottom-right' as ToastPlacement };

let items: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

function show(type: ToastType, message: ReactNode, options: ToastOptions = {}): number {
  const item: ToastItem = {
    id: nextId++,
    type,
    message,
    title: options.title,
    duration: options.duration ?? TOAST_DEFAULTS.duration,
    placement: options.placement ?? TOAST_DEFAULTS.placement,
  };
  items = [...items, item];
  emit();
  if (item.duration > 0) setTimeout(() => dismiss(item.id), item.duration);
  return item.id;
}

export function dismiss(id?: number): void {
  items = id === undefined ? [] : items.filter((t) => t.id !== id);
  emit();
}

/**
 * Notifications, callable from anywhere (components, mutations' onError):
 * `toast.error('Quantity cannot be less then 1')`, `toast.success(msg, { title, duration, placement })`.
 */
export const toast = Object.assign((type: ToastType, message: ReactNode, options?: ToastOptions) => show(type, message, options), {
  success: (message: ReactNode, options?: ToastOptions) => show('success', message, options),
  error: (message: ReactNode, options?: ToastOptions) => show('error', message, options),
  info: (message: ReactNode, options?: ToastOptions) => show('info', message, options),
  warning: (message: ReactNode, options?: ToastOptions) => show('warning', message, options),
  dismiss,
});

/** Same object as `toast`, for code that prefers a hook. */
export const useToast = () => toast;

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};
const snapshot = () => items;

const PLACEMENTS: ToastPlacement[] = ['top-left', 'top', 'top-right', 'bottom-left', 'bottom', 'bottom-right'];

/** Rendered once by AppProviders. */
export function Toaster() {
  const { t } = useTranslation('common');
  const list = useSyncExternalStore(subscribe, snapshot, snapshot);
  return (
    <>
      {PLACEMENTS.map((placement) => {
        const here = list.filter((item) => item.placement === placement);
        if (here.length === 0) return null;
        return (
          <div key={placement} className={`toaster toaster-${placement}`}>
            {here.map((item) => (
              <div key={item.id} className={`toast toast-${item.type}`} role={item.type === 'error' ? 'alert' : 'status'}>
                <div className="toast-content">
                  <strong className="toast-title">{item.title ?? t(`toast.${item.type}`, { defaultValue: item.type.toUpperCase() })}</strong>
                  <div className="toast-message">{item.message}</div>
                </div>
                <button type="button" className="toast-close" aria-label={t('close')} onClick={() => dismiss(item.id)}>
                  <span aria-hidden="true">×</span>
                </button>
              </div>
            ))}
          </div>
        );
      })}
    </>
  );
}
