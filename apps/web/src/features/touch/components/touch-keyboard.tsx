import { useCallback, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore, type MouseEvent } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { ARABIC_ROWS, LATIN_ROWS, digitRows, shifted, type KeyAction, type KeyDef } from '../keyboard-layouts';
import { acceptsDecimal, clearField, deleteBackward, insertText, keyboardKindOf, pressEnter, type TypableField } from '../type-into';
import '../touch.css';

export interface TouchKeyboardProps {
  /** The cashier's 'Enable Touch support' preference (spec 2.5, persisted as enableTouch). */
  enabled: boolean;
}

const TOUCH_CLASS = 'touch';
const OPEN_CLASS = 'touch-keyboard-open';

const FACES: Record<KeyAction, string> = {
  backspace: '⌫',
  enter: '⏎',
  space: '',
  shift: '⇧',
  layout: '',
  hide: '⌄',
  clear: 'C',
};

// Several screens may mount the keyboard (the root layout, the till, the admin shell): the first
// enabled one serves, the others stay idle, so there is never a second keyboard or a class fight.
let lastId = 0;
const serving: number[] = [];
const servingListeners = new Set<() => void>();
const subscribeServing = (listener: () => void) => {
  servingListeners.add(listener);
  return () => servingListeners.delete(listener);
};
const firstServing = () => serving[0] ?? 0;

function useServing(enabled: boolean): boolean {
  const [id] = useState(() => ++lastId);
  useEffect(() => {
    if (!enabled) return;
    serving.push(id);
    for (const l of servingListeners) l();
    return () => {
      serving.splice(serving.indexOf(id), 1);
      for (const l of servingListeners) l();
    };
  }, [enabled, id]);
  return useSyncExternalStore(subscribeServing, firstServing, firstServing) === id;
}

/**
 * Touch mode (spec 2.5): while `enabled`, <html> carries the `touch` class (bigger targets, see
 * touch.css) and focusing any text or number field opens an on-screen keyboard at the bottom of the
 * screen: a digits pad for number fields, QWERTY for text, and the Arabic layout as well when the
 * page is in Arabic. Keys never take the focus (mousedown is prevented), so the field stays focused
 * and its caret and selection are respected. Mount it in each shell; one instance serves.
 */
export function TouchKeyboard({ enabled: wanted }: TouchKeyboardProps) {
  const enabled = useServing(wanted);
  const { t, i18n } = useTranslation('common');
  const arabicUi = i18n.resolvedLanguage === 'ar';
  const [target, setTarget] = useState<TypableField | null>(null);
  const [hidden, setHidden] = useState(false);
  const [script, setScript] = useState<'latin' | 'arabic'>(arabicUi ? 'arabic' : 'latin');
  const [shift, setShift] = useState(false);
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => setScript(arabicUi ? 'arabic' : 'latin'), [arabicUi]);

  useEffect(() => {
    if (!enabled) return;
    const root = document.documentElement;
    root.classList.add(TOUCH_CLASS);
    return () => root.classList.remove(TOUCH_CLASS);
  }, [enabled]);

  useEffect(() => {
    if (!enabled) {
      setTarget(null);
      return;
    }
    const adopt = (el: Element | null) => {
      if (keyboardKindOf(el)) {
        setTarget(el as TypableField);
        setHidden(false);
        return true;
      }
      return false;
    };
    const onFocusIn = (event: FocusEvent) => {
      if (!adopt(event.target as Element)) setTarget(null);
    };
    // Leaving a field for nothing focusable (a tap on the page) closes the keyboard; keys never blur.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onFocusOut = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (!keyboardKindOf(document.activeElement)) setTarget(null);
      }, 0);
    };
    // A tap on the field that is already focused (after "hide") opens the keyboard again.
    const onPointerDown = (event: PointerEvent) => {
      if (event.target === document.activeElement) adopt(event.target as Element);
    };
    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('focusout', onFocusOut);
    document.addEventListener('pointerdown', onPointerDown);
    adopt(document.activeElement);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('focusout', onFocusOut);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [enabled]);

  const open = enabled && !hidden && target !== null && target.isConnected;
  const kind = target ? keyboardKindOf(target) : null;
  const rows: KeyDef[][] = kind === 'digits' && target ? digitRows(acceptsDecimal(target)) : script === 'arabic' ? ARABIC_ROWS : LATIN_ROWS;
  const layoutId = kind === 'digits' ? 'digits' : script;

  // Room at the bottom of the page and of dialogs, so the keyboard never covers the field.
  useLayoutEffect(() => {
    const root = document.documentElement;
    if (!open) {
      root.classList.remove(OPEN_CLASS);
      root.style.removeProperty('--touch-keyboard-height');
      return;
    }
    root.classList.add(OPEN_CLASS);
    root.style.setProperty('--touch-keyboard-height', `${panel.current?.offsetHeight ?? 0}px`);
    target?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [open, target, layoutId]);
  useEffect(
    () => () => {
      document.documentElement.classList.remove(OPEN_CLASS);
      document.documentElement.style.removeProperty('--touch-keyboard-height');
    },
    [],
  );

  const press = useCallback(
    (key: KeyDef) => {
      const el = target;
      if (!el || !el.isConnected) {
        setTarget(null);
        return;
      }
      if (key.kind === 'char') {
        insertText(el, shifted(key.value, shift));
        if (shift) setShift(false);
        return;
      }
      switch (key.action) {
        case 'backspace': deleteBackward(el); break;
        case 'clear': clearField(el); break;
        case 'space': insertText(el, ' '); break;
        case 'enter': pressEnter(el); break;
        case 'shift': setShift((s) => !s); break;
        case 'layout': setScript((s) => (s === 'arabic' ? 'latin' : 'arabic')); break;
        case 'hide': setHidden(true); break;
      }
    },
    [target, shift],
  );

  if (!open) return null;

  const label = (key: KeyDef): string | undefined => {
    if (key.kind === 'char') return undefined;
    if (key.action === 'layout') return script === 'arabic' ? t('keyboard.latin') : t('keyboard.arabic');
    return t(`keyboard.${key.action}`);
  };
  const face = (key: KeyDef): string => {
    if (key.kind === 'char') return shifted(key.value, shift);
    if (key.action === 'layout') return script === 'arabic' ? 'ABC' : 'أ ب ت';
    if (key.action === 'space') return t('keyboard.space');
    return FACES[key.action];
  };

  return createPortal(
    <div
      ref={panel}
      className={`touch-keyboard touch-keyboard-${layoutId}`}
      role="group"
      aria-label={t('keyboard.label')}
      data-layout={layoutId}
      dir={layoutId === 'arabic' ? 'rtl' : 'ltr'}
      // Keep the focus (and the caret) in the field: a key is pressed, never focused.
      onMouseDown={(e: MouseEvent) => e.preventDefault()}
    >
      {rows.map((row, r) => (
        <div className="touch-keyboard-row" key={`${layoutId}-${r}`}>
          {row.map((key, k) => (
            <button
              key={`${r}-${k}`}
              type="button"
              tabIndex={-1}
              className={[
                'touch-key',
                key.kind === 'action' ? `touch-key-${key.action}` : null,
                key.wide ? 'touch-key-wide' : null,
                key.kind === 'action' && key.action === 'shift' && shift ? 'touch-key-on' : null,
              ].filter(Boolean).join(' ')}
              aria-label={label(key)}
              aria-pressed={key.kind === 'action' && key.action === 'shift' ? shift : undefined}
              onClick={() => press(key)}
            >
              {face(key)}
            </button>
          ))}
        </div>
      ))}
    </div>,
    document.body,
  );
}
