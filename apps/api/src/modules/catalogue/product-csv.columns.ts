import { BASE_COLUMNS, EXTRA_COLUMNS, STORE_COLUMN, VARIANT_COLUMNS, exportHeader } from './product-csv.common.ts';

/** What one column of the file holds: a known column ('field'), or nothing (ignored, unknown, repeated). */
export interface ColumnInfo {
  index: number;
  header: string;
  field: string | null;
  status: 'matched' | 'mapped' | 'ignored' | 'unknown' | 'duplicate';
}

export interface StoreColumns { quantity?: number; location?: number; reOrderLevel?: number }

export interface ColumnPlan {
  columns: ColumnInfo[];
  /** field -> index of the file column that holds it */
  col: Map<string, number>;
  storeCols: Map<number, StoreColumns>;
  /** every column the caller's file may have, in export order (the choices of a mapping) */
  fields: string[];
  problems: { header: string; message: string }[];
}

/** Reads a `mapping` option: a JSON object {"file header": "column" | ""}; 422 naming `mapping` when it is not one. */
export function parseMapping(raw: unknown): Record<string, string> | { error: string } {
  if (raw === undefined || raw === null || raw === '') return {};
  let v: unknown = raw;
  if (typeof raw === 'string') {
    try { v = JSON.parse(raw); } catch { return { error: 'This value should be a JSON object {"file column": "column"}.' }; }
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return { error: 'This value should be a JSON object {"file column": "column"}.' };
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) {
    if (typeof x !== 'string' && x !== null) return { error: `The column of '${k}' should be a text.` };
    out[k.trim()] = (x ?? '').trim();
  }
  return out;
}

/**
 * Decides which field each file column holds: the mapping first ('' = ignore the column), then the
 * exact column name, then the same name in another letter case. Store columns must name a store of
 * the caller. Required columns (the first nine) must be there.
 */
export function planColumns(header: string[], stores: { id: number; name: string }[], mapping: Record<string, string>): ColumnPlan {
  const fields = exportHeader(stores);
  const byLower = new Map(fields.map((f) => [f.toLowerCase(), f]));
  const plan: ColumnPlan = { columns: [], col: new Map(), storeCols: new Map(), fields, problems: [] };
  const known = new Set<string>([...BASE_COLUMNS, ...EXTRA_COLUMNS, ...VARIANT_COLUMNS]);
  header.forEach((h, index) => {
    const info: ColumnInfo = { index, header: h, field: null, status: 'unknown' };
    plan.columns.push(info);
    let target: string | undefined;
    if (Object.hasOwn(mapping, h)) {
      if (mapping[h] === '') { info.status = 'ignored'; return; }
      target = fields.includes(mapping[h]) ? mapping[h] : byLower.get(mapping[h].toLowerCase());
      if (!target) { plan.problems.push({ header: h, message: `Unknown column '${mapping[h]}' in the mapping.` }); return; }
      info.status = 'mapped';
    } else if (fields.includes(h)) {
      target = h;
      info.status = 'matched';
    } else if (byLower.has(h.toLowerCase())) {
      target = byLower.get(h.toLowerCase())!;
      info.status = 'mapped';
    }
    if (!target) {
      const m = STORE_COLUMN.exec(h);
      if (m && !stores.some((s) => s.id === Number(m[3]))) plan.problems.push({ header: h, message: `'Store' with ID '${m[3]}' not found` });
      else plan.problems.push({ header: h || `column ${index + 1}`, message: `Unknown column. Expected: ${[...BASE_COLUMNS, ...EXTRA_COLUMNS, ...VARIANT_COLUMNS].join(', ')} and per-store Quantity/Location/Re-order Level [<store> #<id>].` });
      return;
    }
    if (plan.col.has(target)) {
      info.status = 'duplicate';
      plan.problems.push({ header: h, message: 'This column appears twice.' });
      return;
    }
    info.field = target;
    plan.col.set(target, index);
    if (known.has(target)) return;
    const m = STORE_COLUMN.exec(target)!;
    const storeId = Number(m[3]);
    const entry = plan.storeCols.get(storeId) ?? {};
    entry[m[1] === 'Quantity' ? 'quantity' : m[1] === 'Location' ? 'location' : 'reOrderLevel'] = index;
    plan.storeCols.set(storeId, entry);
  });
  for (const c of BASE_COLUMNS) if (!plan.col.has(c)) plan.problems.push({ header: c, message: 'This column is missing.' });
  return plan;
}
