/**
 * Prints an element in its own window (spec 9: the print window closes 100 ms after the print
 * call), so the dialog around it and the till behind stay out of the paper.
 */
export function printElement(element: HTMLElement, title: string): void {
  const win = window.open('', '_blank', 'width=800,height=600');
  if (!win) return;
  const doc = win.document;
  doc.title = title;
  const style = doc.createElement('style');
  style.textContent =
    'body{font:12px/1.4 system-ui,sans-serif;margin:12px}table{border-collapse:collapse;width:100%}th,td{border:1px solid #ccc;padding:4px;text-align:start}button{display:none}';
  doc.head.appendChild(style);
  doc.body.appendChild(doc.importNode(element, true));
  doc.documentElement.dir = document.documentElement.dir;
  win.focus();
  win.print();
  setTimeout(() => win.close(), 100);
}
