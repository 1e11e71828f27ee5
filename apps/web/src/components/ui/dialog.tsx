import { useId, useLayoutEffect, useRef, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { restoreFocus } from '@/lib/focus';

export type DialogSize = 'sm' | 'md' | 'lg' | 'xl' | 'full';

export interface DialogProps {
  open: boolean;
  /** Called on Esc, overlay click or the close button (never when `closable` is false). */
  onClose?: () => void;
  title: ReactNode;
  children: ReactNode;
  /** Buttons row under the body. */
  footer?: ReactNode;
  size?: DialogSize;
  /** false = forced dialog: no Esc, no overlay close, no close button (store chooser, "Start day"). */
  closable?: boolean;
  /** Element to focus on open; defaults to the first [autofocus] or focusable element. */
  initialFocus?: RefObject<HTMLElement | null>;
  /** 'home': on close focus goes to the screen's home control (the scan box after a sale's receipt, issue 29.1), not the opener. */
  returnFocus?: 'opener' | 'home';
  className?: string;
}

const FOCUSABLE = 'a[href],button:not([disabled]),input:not([disabled]),select:not([disabled]),textarea:not([disabled]),[tabindex]:not([tabindex="-1"])';

// Open dialogs, innermost last: only the top one reacts to Esc and traps Tab.
const stack: string[] = [];

/**
 * Modal dialog (role="dialog", aria-modal) rendered in a portal on <body>. Focus moves in on open,
 * is trapped while open and returns to the opener on close (or the screen's `data-focus-home`
 * control when the opener is gone or was <body>). Nested dialogs stack.
 */
export function Dialog({ open, onClose, title, children, footer, size = 'md', closable = true, initialFocus, returnFocus = 'opener', className }: DialogProps) {
  const { t } = useTranslation('common');
  const id = useId();
  const panel = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  useLayoutEffect(() => {
    onCloseRef.current = onClose;
  });

  // In the commit, not after the paint: a dialog opened by a promise (a sale's receipt) is on the
  // page before React's passive effects run, and a key pressed then (Escape, Tab) must reach it.
  useLayoutEffect(() => {
    if (!open) return;
    const opener = returnFocus === 'home' ? null : document.activeElement as HTMLElement | null;
    stack.push(id);
    document.body.classList.add('has-modal');
    const node = panel.current;
    const target = initialFocus?.current ?? node?.querySelector<HTMLElement>('[autofocus],[data-autofocus]') ?? node?.querySelector<HTMLElement>(FOCUSABLE) ?? node;
    target?.focus();

    function onKeyDown(event: KeyboardEvent) {
      if (stack[stack.length - 1] !== id || !node) return;
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        if (closable) onCloseRef.current?.();
      } else if (event.key === 'Tab') {
        const items = Array.from(node.querySelectorAll<HTMLElement>(FOCUSABLE));
        if (items.length === 0) {
          event.preventDefault();
          return;
        }
        const first = items[0];
        const last = items[items.length - 1];
        if (event.shiftKey && (document.activeElement === first || !node.contains(document.activeElement))) {
          event.preventDefault();
          last.focus();
        } else if (!event.shiftKey && (document.activeElement === last || !node.contains(document.activeElement))) {
          event.preventDefault();
          first.focus();
        }
      }
    }
    document.addEventListener('keydown', onKeyDown, true);
    return () => {
      document.removeEventListener('keydown', onKeyDown, true);
      const at = stack.lastIndexOf(id);
      if (at >= 0) stack.splice(at, 1);
      if (stack.length === 0) document.body.classList.remove('has-modal');
      // Back to the opener; a dialog that opened by itself (Start day) or whose opener is gone hands
      // focus to the screen's home control, never to <body> (issue 29.1). Only the last dialog does.
      if (stack.length === 0) restoreFocus(opener);
      else if (opener && document.contains(opener)) opener.focus();
    };
    // Deliberately not on initialFocus/onClose: focus moves once per opening.
  }, [open, id, closable, returnFocus]);

  if (!open) return null;
  return createPortal(
    <div
      className="dialog-overlay"
      onMouseDown={(e) => {
        if (closable && e.target === e.currentTarget) onCloseRef.current?.();
      }}
    >
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        tabIndex={-1}
        className={['dialog', `dialog-${size}`, className].filter(Boolean).join(' ')}
      >
        <header className="dialog-header">
          <h2 id={`${id}-title`} className="dialog-title">{title}</h2>
          {closable && (
            <button type="button" className="dialog-close" aria-label={t('close')} onClick={() => onCloseRef.current?.()}>
              <span aria-hidden="true">×</span>
            </button>
          )}
        </header>
        <div className="dialog-body">{children}</div>
        {footer && <footer className="dialog-footer">{footer}</footer>}
      </div>
    </div>,
    document.body,
  );
}
