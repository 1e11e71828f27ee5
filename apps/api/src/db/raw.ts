/** Helpers for raw SQL on node-postgres. */

/** Rows of a raw `execute` (node-postgres answers `{rows}`). */
export function rowsOf<T>(res: unknown): T[] {
  return (res as { rows: T[] }).rows;
}

/**
 * An array parameter as a PostgreSQL array literal: a text literal for an `::int[]` /
 * `::numeric[]` cast, and it stays one bind parameter however long the list. Only
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

/**
 * A statement written with named parameters (`:name`, lower case, digits and `_`), compiled once
 * to PostgreSQL's positional `$n` (a name used twice is one parameter). Lets big statements be
 * composed from fragments (lib/stock's stock moves inside a sale's one write) without renumbering
 * by hand. `::type` casts are left alone. `bind` gives the values in order; a missing name throws.
 */
export function namedSql(text: string): { text: string; bind(values: Record<string, unknown>): unknown[] } {
  const names: string[] = [];
  const out = text.replace(/(?<![:\w]):([a-z_][a-z0-9_]*)/g, (_, name: string) => {
    let i = names.indexOf(name);
    if (i < 0) { names.push(name); i = names.length - 1; }
    return `$${i + 1}`;
  });
  return {
    text: out,
    bind(values) {
      return names.map((n) => {
        if (!(n in values) || values[n] === undefined) throw new Error(`namedSql: no value for :${n}`);
        return values[n];
      });
    },
  };
}

/**
 * A parameter the planner cannot look into, even in a custom plan: `(select $n::type)::type`.
 * PostgreSQL plans a prepared statement for its first five executions with the values (custom
 * plans), then keeps a generic plan only if that is estimated no dearer. When every parameter that
 * shapes an estimate (an array fed to `unnest` or `= any`, a flag in a WHERE) is read through
 * here, both plans cost the same and the generic one is kept: the statement is planned once per
 * connection instead of at every execution. (Inside a saleTransaction, generic plans are forced.)
 */
export const opaque = (param: string, type: string) => `(select ${param}::${type})::${type}`;
