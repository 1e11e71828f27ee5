/**
 * Where focus goes back to (issue 29.1: focus never lands on <body> or a hidden element). The
 * control that had it, when it is still on the page, enabled and visible; else the screen's home control,
 * marked `data-focus-home` (the till's scan box), so the cashier can type the next barcode at once.
 */
export function restoreFocus(previous: Element | null, doc: Document = document): void {
  const usable = (el: Element | null): el is HTMLElement =>
    !!el && el !== doc.body && el instanceof HTMLElement && el.isConnected && !(el as HTMLButtonElement).disabled && visible(el) && !el.closest('[inert],[aria-hidden="true"]');
  if (usable(previous)) {
    previous.focus();
    return;
  }
  const home = doc.querySelector('[data-focus-home]');
  if (home instanceof HTMLElement) home.focus();
}

/** Rendered and not hidden by CSS (where the browser can tell: checkVisibility, Chromium 105+). */
function visible(el: HTMLElement): boolean {
  const check = (el as HTMLElement & { checkVisibility?: (o?: object) => boolean }).checkVisibility;
  return typeof check === 'function' ? check.call(el, { visibilityProperty: true }) : true;
}
