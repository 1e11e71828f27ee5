/**
 * The receipt as a PDF (issue 26: attached to the e-mailed receipt), from the same printer-
 * independent layout the receipt printer prints (receipt-doc.ts): 80 mm wide, Courier, the order
 * number as a Code 128 barcode rendered by bwip-js. pdfkit (maintained) writes the PDF.
 */
import bwipjs from 'bwip-js/node';
import PDFDocument from 'pdfkit';
import { docText, type ReceiptDoc } from './receipt-doc.ts';

/** PDF points per millimetre. */
export const MM = 72 / 25.4;
const WIDTH = 80 * MM;
const MARGIN = 4 * MM;
const SIZE = 8;
/** Courier's advance is 0.6 em: the columns that fit the 72 mm of text. */
export const PDF_COLUMNS = Math.floor((WIDTH - 2 * MARGIN) / (SIZE * 0.6));
const LINE = SIZE * 1.25;
const BARCODE_H = 14 * MM;

export async function receiptPdf(doc: ReceiptDoc): Promise<Buffer> {
  const barcode = doc.blocks.find((b) => b.t === 'barcode');
  const png = barcode ? await bwipjs.toBuffer({ bcid: 'code128', text: barcode.value, scale: 2, height: 10, includetext: true }) : null;
  const logo = doc.blocks.find((b) => b.t === 'logo');
  const LOGO_H = logo ? 16 * MM : 0;
  const lines = docText({ ...doc, blocks: doc.blocks.filter((b) => b.t !== 'barcode' && b.t !== 'logo') }, PDF_COLUMNS).split('\n');
  const height = 2 * MARGIN + lines.length * LINE + (png ? BARCODE_H + LINE : 0) + LOGO_H;
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
