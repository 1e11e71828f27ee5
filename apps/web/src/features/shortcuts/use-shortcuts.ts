import { useEffect, useRef } from 'react';
import { isDialogOpen, isEditable, matchShortcut } from './match-shortcut';
import type { ShortcutId } from './shortcut-list';

export type ShortcutHandlers = Partial<Record<ShortcutId, (index?: number) => void>>;

function hasSelectedText(el: Element | null): boolean {
  if (el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA')) {
    const input = el as HTMLInputElement;
    try {
      return input.selectionStart !== null && input.selectionStart !== input.selectionEnd;
    } catch {
      return false;
    }
  }
  return false;
}

/**
 * The till's global shortcuts (spec 2.5). Ignored while a modal dialog is open or when the
 * cashier turned shortcuts off. Handlers are read through a ref so callers may pass a fresh
 * object every render.
 */
export function useShortcuts(handlers: ShortcutHandlers, enabled: boolean): void {
  const ref = useRef(handlers);
  ref.current = handlers;
  useEffect(() => {
    if (!enabled) return;
    let pHeld = false;
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.code === 'KeyP' && e.altKey) {
        pHeld = true;
        e.preventDefault();
        return;
      }
      if (e.defaultPrevented || isDialogOpen()) return;
      const active = document.activeElement;
      const match = matchShortcut(e, isEditable(active), pHeld);
      if (!match) return;
      const handler = ref.current[match.id] ?? (match.id === 'focusSearchF3' ? ref.current.focusSearch : undefined);
      if (!handler) return;
      if (match.id === 'clear' && hasSelectedText(active)) return; // let ctrl+x cut the selection
      e.preventDefault();
      e.stopPropagation();
      handler(match.index);
    };
    const onKeyUp = (e: KeyboardEvent) => {
      if (e.code === 'KeyP' || e.key === 'Alt') pHeld = false;
    };
    const onBlur = () => {
      pHeld = false;
    };
    window.addEventListener('keydown', onKeyDown);
    window.addEventListener('keyup', onKeyUp);
    window.addEventListener('blur', onBlur);
    return () => {
      window.removeEventListener('keydown', onKeyDown);
      window.removeEventListener('keyup', onKeyUp);
      window.removeEventListener('blur', onBlur);
    };
  }, [enabled]);
}

/**
 * Up/down list navigation with wrap-around and enter to pick (spec 2.5 "In lists").
 * Returns a keydown handler for the list's search box or container.
 */
export function listKeyHandler(opts: {
  count: number;
  active: number;
  setActive: (i: number) => void;
  onPick: (i: number) => void;
}) {
  return (e: { key: string; preventDefault(): void }) => {
    const { count, active, setActive, onPick } = opts;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (count === 0) return;
      const delta = e.key === 'ArrowDown' ? 1 : -1;
      setActive((((active + delta) % count) + count) % count);
    } else if (e.key === 'Enter') {
      if (count === 0 || active < 0 || active >= count) return;
      e.preventDefault();
      onPick(active);
    }
  };
}
