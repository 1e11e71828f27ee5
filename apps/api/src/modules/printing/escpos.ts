/**
 * A receipt layout (receipt-doc.ts) as ESC/POS bytes, through the maintained
 * @point-of-sale/receipt-printer-encoder (code pages, barcodes, cut and drawer pulse are its job,
 * not hand-written byte tables). 80 mm paper prints 48 columns, 58 mm 32 (font A).
 */
import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';
import { PNG } from 'pngjs';
import { row, type ReceiptDoc } from './receipt-doc.ts';

export type PaperWidth = 58 | 80;
export const columnsFor = (paper: number): number => (paper === 58 ? 32 : 48);

function encoder(paper: number) {
  return new ReceiptPrinterEncoder({ language: 'esc-pos', columns: columnsFor(paper), feedBeforeCut: 4, imageMode: 'raster' }).initialize().codepage('auto');
}

/** The logo at most half the paper wide (dots: 8 per mm at 203 dpi), in multiples of 8 dots, dithered. */
function logo(e: ReturnType<typeof encoder>, png: Buffer, paper: number): void {
  let image: PNG;
  try {
    image = PNG.sync.read(png);
  } catch {
    return; // a damaged logo is no logo: the receipt still prints
  }
  const maxWidth = Math.floor((paper === 58 ? 384 : 576) / 2 / 8) * 8;
  const width = Math.max(8, Math.min(maxWidth, Math.floor(image.width / 8) * 8));
  const height = Math.max(8, Math.round((width * image.height) / image.width / 8) * 8);
  e.align('center').image({ data: image.data, width: image.width, height: image.height }, width, height, 'atkinson').align('left');
}

/** The receipt, cut at the end; with `drawer` the cash drawer's kick (pin 2) before the cut. */
export function receiptBytes(doc: ReceiptDoc, paper: number, drawer: boolean): Uint8Array {
  const columns = columnsFor(paper);
  const e = encoder(paper);
  for (const b of doc.blocks) {
    if (b.t === 'title') e.align('center').bold(true).size(1, 2).line(b.text).size(1, 1).bold(false).align('left');
    else if (b.t === 'text') e.align(b.center ? 'center' : 'left').bold(!!b.bold).line(b.text).bold(false).align('left');
    else if (b.t === 'row') for (const l of row(b.left, b.right, columns).split('\n')) e.bold(!!b.bold).line(l).bold(false);
    else if (b.t === 'rule') e.rule();
    else if (b.t === 'logo') logo(e, b.png, paper);
    else e.align('center').barcode(b.value, 'code128', 60).align('left');
  }
  if (drawer) e.pulse();
  return e.cut('partial').encode();
}

/** A "no sale": only the drawer kick. */
export function drawerBytes(paper: number): Uint8Array {
  return encoder(paper).pulse().encode();
}
