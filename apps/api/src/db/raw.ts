/** Helpers for raw SQL that runs on either driver (node-postgres, PGlite). */

/** Rows of a raw `execute`: node-postgres answers `{rows}`, PGlite's Drizzle driver may answer the array. */
export function rowsOf<T>(res: unknown): T[] {
  return ((res as { rows?: T[] }).rows ?? (res as T[]));
}

/**
 * An array parameter as a PostgreSQL array literal: both drivers take a text literal for an
 * `::int[]` / `::numeric[]` cast, and it stays one bind parameter however long the list. Only
 * numbers, null and decimal strings go through here (anything else throws).
 */
export function pgArray(values: readonly (number | string | null)[]): string {
  return `{${values.map((v) => {
    if (v === null) return 'NULL';
    const s = String(v);
    if (!/^-?\d+(\.\d+)?$/.test(s)) throw new Error(`pgArray: not a number ${JSON.stringify(v)}`);
    return s;
  }).join(',')}}`;
}
