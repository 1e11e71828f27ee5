import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { validationError } from '@pos/domain/errors';
import { product } from '../db/schema/catalogue.ts';

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
 * - A column searched often on a large table keeps its fold in a stored column (STORED below,
 *   migration 0017): the match and its indexes read that column, so a trigram candidate's recheck
 *   does not recompute `pos_search_fold` (unaccent, ~10 µs a row: the cost of a search at 1M products).
 * - Several words, on a column with a links index (migration 0018): through the words' links
 *   (the text around each space), whose posting lists are short where two common words seldom stand
 *   together, with the folded LIKE as the exact test.
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

/**
 * Columns whose fold (pos_search_fold) and key (pos_search_key: the fold's bytes spelled in ASCII
 * letters and digits, migration 0017) are stored columns, each with its indexes.
 */
const STORED = new Map<PgColumn | SQL, { fold: PgColumn; key: PgColumn; links?: boolean }>([
  [product.name, { fold: product.nameFold, key: product.nameKey, links: true }],
]);

/** Characters the fold keeps one for one (ASCII letters and digits, Arabic letters): the ones counted for a link. */
const KEPT = /[a-z0-9\u0621-\u063a\u0641-\u064a]/giu;
const kept = (word: string) => word.match(KEPT)?.length ?? 0;

/**
 * Whether pos_search_links(fold(text), true) is sure to fix at least one link (migration 0018):
 * a space whose left word is not the first or has 3+ characters, and whose right word is not the
 * last or has 3+. Counted on the characters the fold cannot shorten, so "yes" holds in SQL too; an
 * empty set of links would be true of every name (correct, but no use to the index).
 */
export function fixesLinks(text: string): boolean {
  const words = text.split(' ');
  const n = words.length;
  for (let i = 0; i < n - 1; i++) {
    if ((i > 0 || kept(words[i]!) >= 3) && (i + 1 < n - 1 || kept(words[i + 1]!) >= 3)) return true;
  }
  return false;
}

/** The condition "column matches the search text" (see above); text from searchText. */
export function textMatch(col: PgColumn | SQL, text: string): SQL {
  const pattern = escapeLike(text);
  const stored = STORED.get(col);
  const fold = stored ? sql`${stored.fold}` : sql`pos_search_fold(${col})`;
  if ([...text.replace(MARKS, '')].length <= 2) return sql`${fold} like (pos_search_fold(${pattern}) || '%')`;
  if (stored?.links && fixesLinks(text)) {
    // Both conditions visible, their estimates multiply (a name with the text has its links: they are
    // not independent) and the planner ANDs both indexes' bitmaps for common words: 90-240 ms at 1M.
    // coalesce() hides the LIKE from the estimate (0.5) and from the trigram index: the links index
    // finds rare words' candidates, common words' pages walk the ids in product_list_idx,
    // which carries the folded name (migration 0019: an index-only walk; bench/search-explain.ts).
    return sql`pos_search_links(${stored.fold}, false) @> pos_search_links(pos_search_fold(${text}), true)
      and coalesce(${stored.fold} like ('%' || pos_search_fold(${pattern}) || '%'), false)`;
  }
  // eslint-disable-next-line no-control-regex
  const ascii = !/[^\x00-\x7f]/.test(text);
  // A stored key is an exact test by itself (migration 0017), for any text: one condition, one
  // estimate. ASCII text keeps the fold's index, whose trigrams span three letters, not 1.5.
  if (stored && !ascii) return sql`${stored.key} like ('%' || pos_search_key(${text}) || '%')`;
  const match = sql`${fold} like ('%' || pos_search_fold(${pattern}) || '%')`;
  // Non-ASCII text (Arabic...): also through the hex form's trigram index (migration 0010: the C
  // locale's pg_trgm sees no letters in it); the folded match above stays the exact test.
  return ascii ? match : sql`(pos_search_hex(${col}) like ('%' || pos_search_hex(${text}) || '%') and ${match})`;
}

/** searchText + textMatch; undefined (no condition) for an empty search. */
export function searchCondition(col: PgColumn | SQL, value: string | string[] | undefined, field: string): SQL | undefined {
  const text = searchText(value, field);
  return text === undefined ? undefined : textMatch(col, text);
}
