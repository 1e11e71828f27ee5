import { restoreFocus } from '@/lib/focus';

/** Receipt CSS, inlined into the print frame (3.5 inch wide, spec 9). */
export const RECEIPT_CSS = `
@page { size: 3.5in auto; margin: 0; }
body { margin: 0; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; color: #000; }
.receipt { width: 3.5in; padding: 0.15in; box-sizing: border-box; }
.receipt h1 { font-size: 16px; text-align: center; margin: 0 0 4px; }
.receipt p { margin: 2px 0; }
.receipt table { width: 100%; border-collapse: collapse; }
.receipt th, .receipt td { text-align: start; padding: 1px 0; vertical-align: top; }
.receipt .num { text-align: end; }
.receipt hr { border: 0; border-top: 1px dashed #000; margin: 4px 0; }
.receipt .receipt-footer { text-align: center; margin-top: 6px; }
.receipt .receipt-variant { font-size: 10px; }
`;

/**
 * Prints a receipt through the browser: a hidden frame holds a copy of the rendered receipt, is
 * printed, and is removed 100 ms after the print call (spec 9). A frame rather than window.open,
 * so a popup blocker cannot swallow the automatic print after a sale.
 */
export function printReceipt(node: HTMLElement | null, doc: Document = document): void {
  if (!node) return;
  // Focus never goes into the frame (issue 29.1): the frame's window prints without being focused
  // (Chromium, Firefox); if a browser moves focus there anyway, it comes back where it was.
  const had = doc.activeElement;
  const frame = doc.createElement('iframe');
  frame.setAttribute('aria-hidden', 'true');
  frame.tabIndex = -1;
  frame.style.cssText = 'position:fixed;inset-inline-start:-10000px;inset-block-start:0;width:4in;height:1px;border:0;visibility:hidden;';
  doc.body.appendChild(frame);
  const win = frame.contentWindow;
  const fdoc = frame.contentDocument;
  if (!win || !fdoc) {
    frame.remove();
    return;
  }
  fdoc.open();
  fdoc.write(`<!doctype html><html dir="${doc.documentElement.dir || 'ltr'}"><head><meta charset="utf-8"><title>Receipt</title><style>${RECEIPT_CSS}</style></head><body>${node.outerHTML}</body></html>`);
  fdoc.close();
  try {
    win.print();
  } finally {
    if (doc.activeElement === frame || doc.activeElement === doc.body) restoreFocus(had, doc);
    setTimeout(() => {
      const inFrame = doc.activeElement === frame;
      frame.remove();
      if (inFrame) restoreFocus(had, doc);
    }, 100);
  }
}
