import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { validationError } from '@pos/domain/errors';

/**
 * Text search of every list (issue 30): one rule for every partial-match filter.
 * - The text and the column are both folded by `pos_search_fold` (migration 0010): case, Latin
 *   accents ('cafe' finds 'Café'), Arabic harakat/tatweel and alef/yaa/taa-marbuta spellings.
 * - `%`, `_` and `\` are literals, never wildcards.
 * - 3+ characters: substring match, through a GIN trigram index on the folded column (and, for
 *   non-ASCII text, on its UTF-8 hex form: name columns of products, customers, orders).
 * - 1-2 characters: prefix match ("starts with"), through a b-tree on the folded column: a
 *   trigram index cannot answer them, and a shop typing "c" wants the names beginning with c.
 * - More than SEARCH_MAX characters: 422 naming the field.
 */
export const SEARCH_MAX = 100;

const MARKS = /[\u064B-\u065F\u0670\u0640]/g;
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The search text of a filter value (trimmed), or undefined when there is nothing to search. */
export function searchText(value: string | string[] | undefined, field: string): string | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const text = String(raw).trim();
  if ([...text].length > SEARCH_MAX) {
    throw validationError([{ propertyPath: field, message: `The search text is limited to ${SEARCH_MAX} characters.` }]);
  }
  return text.replace(MARKS, '') ? text : undefined;
}

/** The condition "column matches the search text" (see above); text from searchText. */
export function textMatch(col: PgColumn | SQL, text: string): SQL {
  const pattern = escapeLike(text);
  if ([...text.replace(MARKS, '')].length <= 2) return sql`pos_search_fold(${col}) like (pos_search_fold(${pattern}) || '%')`;
  const match = sql`pos_search_fold(${col}) like ('%' || pos_search_fold(${pattern}) || '%')`;
  // Non-ASCII text (Arabic...): also through the hex form's trigram index (migration 0010: the C
  // locale's pg_trgm sees no letters in it); the folded match above stays the exact test.
  // eslint-disable-next-line no-control-regex
  return /[^\x00-\x7f]/.test(text) ? sql`(pos_search_hex(${col}) like ('%' || pos_search_hex(${text}) || '%') and ${match})` : match;
}

/** searchText + textMatch; undefined (no condition) for an empty search. */
export function searchCondition(col: PgColumn | SQL, value: string | string[] | undefined, field: string): SQL | undefined {
  const text = searchText(value, field);
  return text === undefined ? undefined : textMatch(col, text);
}
