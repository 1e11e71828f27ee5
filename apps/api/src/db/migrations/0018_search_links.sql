-- Issue 30.1: a search of several common words that seldom stand together ('coca zero cola' at
-- 1,000,000 products: no match, but each of its trigrams is in tens of thousands of names) cost
-- 10-14 ms of PostgreSQL in the trigram index alone, intersecting long posting lists.
-- pos_search_links(fold, false): the text around each space of a folded name, up to 3 characters
-- on each side and never past the next space ('coca zero cola 330g' -> {'oca zer','ero col','ola 330'}).
-- A name holds a search's text only if it holds every link the search's own words fix
-- (query = true): a word between two spaces stands whole in the name, so its letters are known; the
-- search's first word may end a longer word (3+ characters give its last 3), its last may begin one
-- (3+ give its first 3). Two words that seldom stand together have a short posting list, so the
-- index answers at once; the folded LIKE stays the exact test (resources/search.ts).
-- PL/pgSQL: 2.5 µs a name where the same in SQL (an unnested array) took 8; COST 1 because a
-- page's walk of the primary key calls it only for the rows its LIKE has already kept.
CREATE FUNCTION "pos_search_links"(fold text, query boolean) RETURNS text[]
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 1 AS $$
DECLARE
  w text[] := string_to_array(fold, ' ');
  n int := cardinality(w);
  links text[] := '{}';
BEGIN
  FOR i IN 1 .. n - 1 LOOP
    IF NOT query OR ((i > 1 OR length(w[i]) >= 3) AND (i + 1 < n OR length(w[i + 1]) >= 3)) THEN
      links := links || (right(w[i], 3) || ' ' || left(w[i + 1], 3));
    END IF;
  END LOOP;
  RETURN links;
END $$;
--> statement-breakpoint
-- fastupdate off: a name adds 2-4 entries, written at once, so a search never reads a pending list
-- (after a bulk load of 1,000,000 names it held 159 pages, read by every search: 0.05 -> 3.6 ms).
CREATE INDEX "product_name_links" ON "product" USING gin ("pos_search_links"("name_fold", false)) WITH (fastupdate = off);
--> statement-breakpoint
-- A link the statistics do not hold is estimated at half the rarest one they hold: with 100 of them
-- (1,000 elements) a link found in no name was estimated in 0.45 % of 1,000,000 names, and the page
-- walked every id looking for it (318 ms); with 1,000 (10,000 elements) it is estimated rare.
ALTER INDEX "product_name_links" ALTER COLUMN 1 SET STATISTICS 1000;
