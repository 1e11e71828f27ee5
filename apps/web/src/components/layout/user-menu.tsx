import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from './language-switch';

export interface UserMenuProps {
  /** Who is signed in (shown at the top of the menu). */
  name: string;
  /** Further entries (the profile link, the switch to the till or the back office). */
  children?: ReactNode;
}

/**
 * The user menu of the till toolbar and the back-office header (issue 23): the language switch
 * (en / ar, which turns the page right to left; remembered per user by the server) and the
 * entries the caller passes in. Closes on Escape, on a click outside and after a choice.
 */
export function UserMenu({ name, children }: UserMenuProps) {
  const { t } = useTranslation('common');
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      trigger.current?.focus();
    };
    const onClick = (e: MouseEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onClick);
    };
  }, [open]);

  return (
    <div className="user-menu" ref={box}>
      <button
        ref={trigger}
        type="button"
        className="btn btn-ghost btn-sm"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
      >
        <span aria-hidden="true">☰</span> {t('userMenu.open')}
      </button>
      {open && (
        <div id={panelId} className="user-menu-panel stack" role="group" aria-label={t('userMenu.label', { name })}>
          <strong>{name}</strong>
          <LanguageSwitch />
          {children && <div className="stack" onClick={() => setOpen(false)}>{children}</div>}
        </div>
      )}
    </div>
  );
}
