/**
 * Receipts with Arabic (issue 26): code pages cannot join Arabic letters or order right-to-left
 * text, so a layout (receipt-doc.ts) holding Arabic is set in a proportional font that has it —
 * Noto Naskh Arabic (Google Fonts' build, which also has Latin, from the maintained
 * @expo-google-fonts/noto-naskh-arabic package) — and printed as a raster image (receipt-raster.ts)
 * or written into the PDF (receipt-pdf.ts). Both lay the blocks out here into lines, measured with
 * their own text measure, so the paper and the PDF agree.
 */
import { createRequire } from 'node:module';
import bidiFactory from 'bidi-js';
import type { Block, ReceiptDoc } from './receipt-doc.ts';

const require = createRequire(import.meta.url);
export const FONT_FILES = {
  regular: require.resolve('@expo-google-fonts/noto-naskh-arabic/400Regular/NotoNaskhArabic_400Regular.ttf'),
  bold: require.resolve('@expo-google-fonts/noto-naskh-arabic/700Bold/NotoNaskhArabic_700Bold.ttf'),
};

/** Arabic letters (the Arabic blocks and their presentation forms). */
const ARABIC = /[\u0600-\u06FF\u0750-\u077F\u0870-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]/u;

const blockText = (b: Block): string => (b.t === 'title' || b.t === 'text' ? b.text : b.t === 'row' ? `${b.left} ${b.right}` : '');

/** The layout needs shaping (a raster on the printer, the Arabic font in the PDF): some of its text is Arabic. */
export const needsShaping = (doc: ReceiptDoc): boolean => doc.blocks.some((b) => ARABIC.test(blockText(b)));

const bidi = bidiFactory();

/** Right to left: the text's first strong character is right-to-left (Unicode's paragraph rule). */
export function isRtl(text: string): boolean {
  return bidi.getEmbeddingLevels(text, 'auto').paragraphs[0]?.level === 1;
}

/**
 * The text's runs in the order they stand on paper, left to right (the Unicode bidirectional
 * algorithm, by bidi-js). A right-to-left run keeps its letters in reading order with `rtl` set:
 * the font engine shapes it and lays its glyphs out from the right.
 */
export function visualRuns(text: string, rtl = isRtl(text)): Array<{ text: string; rtl: boolean }> {
  const { levels } = bidi.getEmbeddingLevels(text, rtl ? 'rtl' : 'ltr');
  const runs: Array<{ text: string; level: number }> = [];
  for (let i = 0; i < text.length; i++) {
    const last = runs[runs.length - 1];
    if (last && last.level === levels[i]) last.text += text[i];
    else runs.push({ text: text[i], level: levels[i] });
  }
  // Rule L2: from the highest level down to the lowest odd one, reverse every sequence of runs at that level or above.
  const max = Math.max(0, ...runs.map((r) => r.level));
  const minOdd = Math.min(...runs.map((r) => (r.level % 2 ? r.level : r.level + 1)));
  for (let level = max; level >= minOdd; level--) {
    for (let i = 0; i < runs.length;) {
      if (runs[i].level < level) { i++; continue; }
      let j = i;
      while (j < runs.length && runs[j].level >= level) j++;
      runs.splice(i, j - i, ...runs.slice(i, j).reverse());
      i = j;
    }
  }
  return runs.map((r) => ({ text: r.text, rtl: r.level % 2 === 1 }));
}

export type Align = 'left' | 'right' | 'center';
/** `rtl`: the part's base direction (the paragraph's, in Unicode's terms): an Arabic store's or Arabic text's. */
export interface Part { text: string; align: Align; rtl: boolean }
export type Line =
  | { t: 'text'; parts: Part[]; bold: boolean; big: boolean }
  | { t: 'rule' }
  | { t: 'barcode'; value: string }
  | { t: 'logo'; png: Buffer };

/** A text's width in the unit of `width` (dots on paper, points in a PDF). */
export type Measure = (text: string, bold: boolean, big: boolean) => number;

/** Words onto lines no wider than `width` (a word wider than the line stands alone). */
function wrap(text: string, fits: (s: string) => boolean): string[] {
  if (fits(text)) return [text];
  const out: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (line && !fits(next)) { out.push(line); line = word; } else line = next;
  }
  if (line) out.push(line);
  return out;
}

/**
 * The blocks as lines `width` wide: a title big and bold, centred; a text left or right by its
 * own direction (an Arabic product name stands on the right), centred when the layout says so;
 * a row's two parts on one line when they fit, else the right part on a line of its own. A
 * right-to-left layout (an Arabic store) mirrors it: texts on the right, a row's label on the right.
 */
export function layoutLines(doc: ReceiptDoc, width: number, measure: Measure, gap: number): Line[] {
  const lines: Line[] = [];
  // In an Arabic store a part with Arabic reads right to left ('Cash مدفوع': 'Cash' first, on the
  // right); one without keeps its own direction ('2 x $10.75', '-$1.08', not '$1.08-').
  const dir = (text: string) => isRtl(text) || (!!doc.rtl && ARABIC.test(text));
  for (const b of doc.blocks) {
    if (b.t === 'rule' || b.t === 'barcode' || b.t === 'logo') { lines.push(b.t === 'rule' ? { t: 'rule' } : b); continue; }
    const bold = b.t === 'title' ? true : !!b.bold;
    const big = b.t === 'title';
    if (b.t === 'row') {
      const l = measure(b.left, bold, big);
      const r = measure(b.right, bold, big);
      // Right to left: the label on the right, the amount on the left.
      const [start, end]: Align[] = doc.rtl ? ['right', 'left'] : ['left', 'right'];
      const label = doc.rtl ? b.left.trim() : b.left;
      if (l + gap + r <= width) lines.push({ t: 'text', parts: [{ text: label, align: start, rtl: dir(label) }, { text: b.right, align: end, rtl: dir(b.right) }], bold, big });
      else {
        for (const s of wrap(label, (x) => measure(x, bold, big) <= width)) lines.push({ t: 'text', parts: [{ text: s, align: start, rtl: dir(s) }], bold, big });
        lines.push({ t: 'text', parts: [{ text: b.right, align: end, rtl: dir(b.right) }], bold, big });
      }
      continue;
    }
    if (!b.text.trim()) continue;
    const align: Align = b.t === 'title' || b.center ? 'center' : doc.rtl || isRtl(b.text) ? 'right' : 'left';
    for (const s of wrap(b.text, (x) => measure(x, bold, big) <= width)) lines.push({ t: 'text', parts: [{ text: s, align, rtl: dir(s) }], bold, big });
  }
  return lines;
}
