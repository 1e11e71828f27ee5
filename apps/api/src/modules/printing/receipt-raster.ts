/**
 * Receipt lines as a picture of the paper (issue 26: Arabic on ESC/POS): drawn at the printer's
 * dot width (203 dpi: 384 dots on 58 mm paper, 576 on 80 mm) in Noto Naskh Arabic by
 * @napi-rs/canvas (Skia with HarfBuzz shaping and the Unicode bidirectional algorithm: joined
 * Arabic letters, right-to-left runs; MIT, its native build shipped in the npm package), then
 * printed by escpos.ts as an ESC/POS raster image (GS v 0), one dot per pixel.
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import { lazyModule } from '../../lib/lazy-module.ts';
import { FONT_FILES, layoutLines, type Line } from './receipt-lines.ts';
import type { ReceiptDoc } from './receipt-doc.ts';

const FAMILY = 'Receipt Naskh';
/** Font A of an ESC/POS printer is 24 dots high: the text matches it; a title is half as big again. */
export const RASTER = { size: 24, big: 34, line: 38, bigLine: 52, rule: 16, gap: 16 } as const;

/** The canvas (a native Skia build) is loaded on the first Arabic receipt (lib/lazy-module.ts). */
const canvasModule = lazyModule<typeof import('@napi-rs/canvas')>('@napi-rs/canvas');
let registered = false;
function canvas(): typeof import('@napi-rs/canvas') {
  const c = canvasModule();
  if (!registered) {
    c.GlobalFonts.registerFromPath(FONT_FILES.regular, FAMILY);
    c.GlobalFonts.registerFromPath(FONT_FILES.bold, FAMILY);
    registered = true;
  }
  return c;
}

/** The printable width in dots of 58 or 80 mm paper. */
export const dotsFor = (paper: number): number => (paper === 58 ? 384 : 576);

const fontOf = (bold: boolean, big: boolean) => `${bold ? 'bold ' : ''}${big ? RASTER.big : RASTER.size}px "${FAMILY}"`;

function measurer(ctx: SKRSContext2D) {
  return (text: string, bold: boolean, big: boolean) => {
    ctx.font = fontOf(bold, big);
    return ctx.measureText(text).width;
  };
}

/** The receipt's lines at `dots` wide: barcodes and the logo stay printer commands, the rest is text to draw. */
export function rasterLayout(doc: ReceiptDoc, dots: number): Line[] {
  return layoutLines(doc, dots, measurer(canvas().createCanvas(8, 8).getContext('2d')), RASTER.gap);
}

export interface Raster { width: number; height: number; data: Uint8ClampedArray }

const heightOf = (l: Line) => (l.t === 'rule' ? RASTER.rule : l.t === 'text' ? (l.big ? RASTER.bigLine : RASTER.line) : 0);

/** Text and rule lines drawn black on white, `dots` wide (RGBA, as the encoder takes images). */
export function drawLines(lines: Line[], dots: number): Raster {
  const height = Math.max(1, lines.reduce((h, l) => h + heightOf(l), 0));
  const ctx = canvas().createCanvas(dots, height).getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, dots, height);
  ctx.fillStyle = '#000';
  ctx.textBaseline = 'middle';
  let y = 0;
  for (const l of lines) {
    const h = heightOf(l);
    if (l.t === 'rule') ctx.fillRect(0, y + h / 2 - 1, dots, 2);
    else if (l.t === 'text') {
      ctx.font = fontOf(l.bold, l.big);
      for (const p of l.parts) {
        ctx.direction = p.rtl ? 'rtl' : 'ltr';
        ctx.textAlign = p.align;
        ctx.fillText(p.text, p.align === 'left' ? 0 : p.align === 'right' ? dots : dots / 2, y + h / 2);
      }
    }
    y += h;
  }
  const image = ctx.getImageData(0, 0, dots, height);
  return { width: dots, height, data: new Uint8ClampedArray(image.data) };
}
