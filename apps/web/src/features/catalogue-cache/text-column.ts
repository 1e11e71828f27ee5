/** A list of strings as one text: entry i is text.slice(ends[i - 1] ?? 0, ends[i]). Copies as one string, not 100,000. */
export interface TextColumn {
  text: string;
  ends: Int32Array;
}

export function textColumn(list: ReadonlyArray<string | null>): TextColumn {
  const ends = new Int32Array(list.length);
  let at = 0;
  for (let i = 0; i < list.length; i++) {
    at += list[i]?.length ?? 0;
    ends[i] = at;
  }
  return { text: list.join(''), ends };
}

export const textAt = (c: TextColumn, i: number): string => c.text.slice(i > 0 ? c.ends[i - 1] : 0, c.ends[i]);

/**
 * The column with entries `at` (ascending positions) replaced by `values`: the text cut and joined
 * once, the ends after each replaced entry shifted by the lengths it changed.
 */
export function replaceTexts(c: TextColumn, at: readonly number[], values: readonly string[]): TextColumn {
  const n = c.ends.length;
  const ends = new Int32Array(n);
  const parts: string[] = [];
  let from = 0;
  let next = 0;
  let shift = 0;
  for (let j = 0; j < at.length; j++) {
    const i = at[j];
    for (; next < i; next++) ends[next] = c.ends[next] + shift;
    const start = i > 0 ? c.ends[i - 1] : 0;
    parts.push(c.text.slice(from, start), values[j]);
    shift += values[j].length - (c.ends[i] - start);
    ends[i] = c.ends[i] + shift;
    next = i + 1;
    from = c.ends[i];
  }
  for (; next < n; next++) ends[next] = c.ends[next] + shift;
  parts.push(c.text.slice(from));
  return { text: parts.join(''), ends };
}

/** The column with `values` added at its end. */
export function appendTexts(c: TextColumn, values: readonly string[]): TextColumn {
  if (!values.length) return c;
  const n = c.ends.length;
  const ends = new Int32Array(n + values.length);
  ends.set(c.ends);
  let at = n ? c.ends[n - 1] : 0;
  values.forEach((v, j) => { at += v.length; ends[n + j] = at; });
  return { text: c.text + values.join(''), ends };
}
