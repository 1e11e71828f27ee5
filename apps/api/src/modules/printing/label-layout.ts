/**
 * Label sheets (issue 26): A4 grids for office printers and single labels for label printers. A
 * layout is in millimetres; one that does not fit its page is refused, saying by how much.
 */
import { z } from 'zod';
import { validationError } from '@pos/domain/errors';

export interface LabelLayout {
  pageWidth: number; pageHeight: number;
  columns: number; rows: number;
  labelWidth: number; labelHeight: number;
  marginTop: number; marginLeft: number;
  gapX: number; gapY: number;
}

export const LABEL_PRESETS: Record<string, LabelLayout> = {
  /** 24 per A4 sheet, 70 x 37 mm (the common office label sheet). */
  'a4-3x8': { pageWidth: 210, pageHeight: 297, columns: 3, rows: 8, labelWidth: 70, labelHeight: 37, marginTop: 0.5, marginLeft: 0, gapX: 0, gapY: 0 },
  /** 40 per A4 sheet, 48.5 x 25.4 mm (small shelf-edge labels). */
  'a4-4x10': { pageWidth: 210, pageHeight: 297, columns: 4, rows: 10, labelWidth: 48.5, labelHeight: 25.4, marginTop: 21.5, marginLeft: 8, gapX: 0, gapY: 0 },
  /** One 50 x 30 mm label per page: thermal label printers. */
  'single-50x30': { pageWidth: 50, pageHeight: 30, columns: 1, rows: 1, labelWidth: 50, labelHeight: 30, marginTop: 0, marginLeft: 0, gapX: 0, gapY: 0 },
  /** One 58 x 40 mm label per page. */
  'single-58x40': { pageWidth: 58, pageHeight: 40, columns: 1, rows: 1, labelWidth: 58, labelHeight: 40, marginTop: 0, marginLeft: 0, gapX: 0, gapY: 0 },
};

const mm = (max: number) => z.number({ error: 'This value should be a number of millimetres.' }).min(0).max(max);
const customLayout = z.object({
  pageWidth: mm(1000).min(10), pageHeight: mm(2000).min(10),
  columns: z.number().int().min(1).max(20), rows: z.number().int().min(1).max(50),
  labelWidth: mm(1000).min(10), labelHeight: mm(1000).min(8),
  marginTop: mm(500), marginLeft: mm(500), gapX: mm(100), gapY: mm(100),
}).strict();

export const layoutField = z.union([
  z.enum(Object.keys(LABEL_PRESETS) as [string, ...string[]], { error: `One of ${Object.keys(LABEL_PRESETS).join(', ')}, or a layout in millimetres.` }),
  customLayout,
]);

/** The layout of a preset name or a custom object; a grid wider or taller than its page is a 422 on `layout`. */
export function resolveLayout(value: z.infer<typeof layoutField>): LabelLayout {
  const l = typeof value === 'string' ? LABEL_PRESETS[value]! : value;
  const width = l.marginLeft + l.columns * l.labelWidth + (l.columns - 1) * l.gapX;
  const height = l.marginTop + l.rows * l.labelHeight + (l.rows - 1) * l.gapY;
  const over: string[] = [];
  if (width > l.pageWidth + 0.01) over.push(`${round(width)} mm wide on a ${l.pageWidth} mm page`);
  if (height > l.pageHeight + 0.01) over.push(`${round(height)} mm tall on a ${l.pageHeight} mm page`);
  if (over.length) throw validationError([{ propertyPath: 'layout', message: `The labels do not fit the page: ${over.join(', ')}.` }]);
  return l;
}

const round = (n: number) => Math.round(n * 10) / 10;
