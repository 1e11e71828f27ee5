/**
 * A receipt layout (receipt-doc.ts) as ESC/POS bytes, through the maintained
 * @point-of-sale/receipt-printer-encoder (code pages, barcodes, cut and drawer pulse are its job,
 * not hand-written byte tables). 80 mm paper prints 48 columns, 58 mm 32 (font A).
 */
import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';
import { PNG } from 'pngjs';
import { row, type ReceiptDoc } from './receipt-doc.ts';
import { needsShaping } from './receipt-lines.ts';
import { dotsFor, drawLines, rasterLayout } from './receipt-raster.ts';

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

/**
 * A layout with Arabic: its text as raster images at the paper's dot width (receipt-raster.ts:
 * shaped, right to left), one image per stretch of text; the barcode and the logo between them
 * stay the printer's own commands (a barcode printed by the printer scans best).
 */
function rasterBody(e: ReturnType<typeof encoder>, doc: ReceiptDoc, paper: number): void {
  const dots = dotsFor(paper);
  let text: ReturnType<typeof rasterLayout> = [];
  const flush = () => {
    if (!text.length) return;
    const image = drawLines(text, dots);
    e.align('left').image({ data: image.data, width: image.width, height: image.height }, image.width, image.height, 'threshold', 128);
    text = [];
  };
  for (const l of rasterLayout(doc, dots)) {
    if (l.t === 'barcode') { flush(); e.align('center').barcode(l.value, 'code128', 60).align('left'); } else if (l.t === 'logo') { flush(); logo(e, l.png, paper); } else text.push(l);
  }
  flush();
}

/**
 * The receipt, cut at the end; with `drawer` the cash drawer's kick (pin 2) before the cut.
 * Latin text prints as text (a code page: fast and small); a layout with Arabic as a raster.
 */
export function receiptBytes(doc: ReceiptDoc, paper: number, drawer: boolean): Uint8Array {
  const e = encoder(paper);
  if (needsShaping(doc)) rasterBody(e, doc, paper);
  else textBody(e, doc, paper);
  if (drawer) e.pulse();
  return e.cut('partial').encode();
}

function textBody(e: ReturnType<typeof encoder>, doc: ReceiptDoc, paper: number): void {
  const columns = columnsFor(paper);
  for (const b of doc.blocks) {
    if (b.t === 'title') e.align('center').bold(true).size(1, 2).line(b.text).size(1, 1).bold(false).align('left');
    else if (b.t === 'text') e.align(b.center ? 'center' : 'left').bold(!!b.bold).line(b.text).bold(false).align('left');
    else if (b.t === 'row') for (const l of row(b.left, b.right, columns).split('\n')) e.bold(!!b.bold).line(l).bold(false);
    else if (b.t === 'rule') e.rule();
    else if (b.t === 'logo') logo(e, b.png, paper);
    else e.align('center').barcode(b.value, 'code128', 60).align('left');
  }
}

/** A "no sale": only the drawer kick. */
export function drawerBytes(paper: number): Uint8Array {
  return encoder(paper).pulse().encode();
}
