import { useEffect, type RefObject } from 'react';

/**
 * Focus is never hidden under the till's sticky bottom toolbar (issue 29.2, WCAG 2.4.11 Focus Not
 * Obscured): the page keeps a scroll padding of the toolbar's height (it wraps to more rows on a
 * narrow screen), and a control that gets focus behind it anyway is scrolled up above it.
 */
export function useUnobscuredFocus(screen: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const bar = screen.current?.querySelector<HTMLElement>('.pos-toolbar');
    if (!bar) return;
    const root = document.documentElement;
    const pad = () => root.style.setProperty('scroll-padding-block-end', `${bar.offsetHeight + 8}px`);
    pad();
    const observer = new ResizeObserver(pad);
    observer.observe(bar);
    const onFocusIn = (e: FocusEvent) => {
      const el = e.target;
      if (!(el instanceof HTMLElement) || bar.contains(el) || el.closest('[role="dialog"]')) return;
      const barTop = bar.getBoundingClientRect().top;
      const box = el.getBoundingClientRect();
      if (box.bottom > barTop - 4) window.scrollBy({ top: box.bottom - barTop + 8, behavior: 'instant' });
    };
    document.addEventListener('focusin', onFocusIn);
    return () => {
      observer.disconnect();
      document.removeEventListener('focusin', onFocusIn);
      root.style.removeProperty('scroll-padding-block-end');
    };
  }, [screen]);
}
