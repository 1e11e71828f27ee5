/**
 * The receipt as a PDF (issue 26: attached to the e-mailed receipt), from the same printer-
 * independent layout the receipt printer prints (receipt-doc.ts): 80 mm wide, Courier (Noto Naskh
 * Arabic, proportional, when the receipt has Arabic: receipt-lines.ts), the order
 * number as a Code 128 barcode rendered by bwip-js. pdfkit (maintained) writes the PDF.
 */
import type BwipJs from 'bwip-js/node';
import type PDFKitDocument from 'pdfkit';
import { lazyModule } from '../../lib/lazy-module.ts';
import { docText, type ReceiptDoc } from './receipt-doc.ts';
import { FONT_FILES, layoutLines, needsShaping, visualRuns, type Line } from './receipt-lines.ts';

/** Loaded on the first PDF receipt (lib/lazy-module.ts). */
const bwip = lazyModule<typeof BwipJs>('bwip-js/node');
const pdfkit = lazyModule<typeof PDFKitDocument>('pdfkit');

/** PDF points per millimetre. */
export const MM = 72 / 25.4;
const WIDTH = 80 * MM;
const MARGIN = 4 * MM;
const SIZE = 8;
/** Courier's advance is 0.6 em: the columns that fit the 72 mm of text. */
export const PDF_COLUMNS = Math.floor((WIDTH - 2 * MARGIN) / (SIZE * 0.6));
const LINE = SIZE * 1.25;
const BARCODE_H = 14 * MM;

/** A receipt with Arabic (receipt-lines.ts): Noto Naskh Arabic embedded, laid out like the paper's raster. */
async function shapedPdf(doc: ReceiptDoc): Promise<Buffer> {
  const barcode = doc.blocks.find((b) => b.t === 'barcode');
  const png = barcode ? await bwip().toBuffer({ bcid: 'code128', text: barcode.value, scale: 2, height: 10, includetext: true }) : null;
  const BIG = SIZE * 1.4;
  const PDFDocument = pdfkit();
  const pdf = new PDFDocument({ size: [WIDTH, 2000], margin: MARGIN, autoFirstPage: false, info: { Title: 'Receipt' } });
  pdf.registerFont('naskh', FONT_FILES.regular);
  pdf.registerFont('naskh-bold', FONT_FILES.bold);
  const setFont = (bold: boolean, big: boolean) => pdf.font(bold ? 'naskh-bold' : 'naskh').fontSize(big ? BIG : SIZE);
  // A part's pieces in visual order (receipt-lines.ts). fontkit shapes each word (and sets a
  // right-to-left word from the right); the words of a right-to-left run are placed here from the right.
  const runs = (text: string, rtl?: boolean) => visualRuns(text, rtl).flatMap((r) => (r.rtl ? r.text.split(/(\s+)/).reverse() : [r.text]))
    .filter(Boolean).map((t) => ({ text: t, width: pdf.widthOfString(t) }));
  const measure = (text: string, bold: boolean, big: boolean) => { setFont(bold, big); return runs(text).reduce((w, r) => w + r.width, 0); };
  const inner = WIDTH - 2 * MARGIN;
  const lines = layoutLines(doc, inner, measure, 2 * SIZE);
  const heightOf = (l: Line) => (l.t === 'rule' ? LINE : l.t === 'barcode' ? (png ? BARCODE_H + 4 : 0) : l.t === 'logo' ? 16 * MM : (l.big ? BIG : SIZE) * 1.7);
  pdf.addPage({ size: [WIDTH, 2 * MARGIN + lines.reduce((h, l) => h + heightOf(l), 0)], margin: MARGIN });
  const chunks: Buffer[] = [];
  pdf.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => { pdf.on('end', () => resolve(Buffer.concat(chunks))); pdf.on('error', reject); });
  let y = MARGIN;
  for (const l of lines) {
    const h = heightOf(l);
    if (l.t === 'rule') pdf.moveTo(MARGIN, y + h / 2).lineTo(WIDTH - MARGIN, y + h / 2).lineWidth(0.5).stroke();
    else if (l.t === 'barcode' && png) pdf.image(png, (WIDTH - 40 * MM) / 2, y, { fit: [40 * MM, BARCODE_H], align: 'center' });
    else if (l.t === 'logo') {
      try {
        pdf.image(l.png, MARGIN, y, { fit: [inner, h - 2], align: 'center' });
      } catch {
        // a damaged logo is no logo
      }
    } else if (l.t === 'text') {
      setFont(l.bold, l.big);
      for (const p of l.parts) {
        const rs = runs(p.text, p.rtl);
        const w = rs.reduce((a, r) => a + r.width, 0);
        let x = p.align === 'left' ? MARGIN : p.align === 'right' ? WIDTH - MARGIN - w : (WIDTH - w) / 2;
        for (const r of rs) {
          // Letters sharing one glyph (a skeleton with its dots) lose their identity in the font's
          // glyph-to-text map: the word itself goes beside them (ActualText), for search and copy.
          if (r.text.trim()) pdf.markContent('Span', { actual: r.text }).text(r.text, x, y, { lineBreak: false }).endMarkedContent();
          x += r.width;
        }
      }
    }
    y += h;
  }
  pdf.end();
  return done;
}

export async function receiptPdf(doc: ReceiptDoc): Promise<Buffer> {
  if (needsShaping(doc)) return shapedPdf(doc);
  const barcode = doc.blocks.find((b) => b.t === 'barcode');
  const png = barcode ? await bwip().toBuffer({ bcid: 'code128', text: barcode.value, scale: 2, height: 10, includetext: true }) : null;
  const logo = doc.blocks.find((b) => b.t === 'logo');
  const LOGO_H = logo ? 16 * MM : 0;
  const lines = docText({ ...doc, blocks: doc.blocks.filter((b) => b.t !== 'barcode' && b.t !== 'logo') }, PDF_COLUMNS).split('\n');
  const height = 2 * MARGIN + lines.length * LINE + (png ? BARCODE_H + LINE : 0) + LOGO_H;
  const PDFDocument = pdfkit();
  const pdf = new PDFDocument({ size: [WIDTH, height], margin: MARGIN, info: { Title: 'Receipt' } });
  const chunks: Buffer[] = [];
  pdf.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => { pdf.on('end', () => resolve(Buffer.concat(chunks))); pdf.on('error', reject); });
  pdf.font('Courier').fontSize(SIZE);
  let y = MARGIN;
  if (logo) {
    try {
      pdf.image(logo.png, MARGIN, y, { fit: [WIDTH - 2 * MARGIN, LOGO_H - 2], align: 'center' });
    } catch {
      // a damaged logo is no logo
    }
    y += LOGO_H;
  }
  const footerAt = lines.length - 1;
  lines.forEach((line, i) => {
    if (i === footerAt && png) {
      pdf.image(png, (WIDTH - 40 * MM) / 2, y, { fit: [40 * MM, BARCODE_H], align: 'center' });
      y += BARCODE_H + LINE;
    }
    pdf.text(line, MARGIN, y, { lineBreak: false });
    y += LINE;
  });
  pdf.end();
  return done;
}
