-- Issue 30.1 at a million products. pos_search_key: the folded text's UTF-8 bytes, each spelled as
-- two ASCII characters, the high half-byte as a letter g..v and the low one as a hex digit 0..f
-- (built as '-' before each hex pair, then '-<digit>' -> letter). It is ASCII letters and digits
-- only, so pg_trgm indexes it on any locale (the shop's engine, C locale, sees no letters in
-- Arabic); and since the two halves come from disjoint alphabets a
-- match can only start on a byte boundary: `key(name) like '%' || key(text) || '%'` holds exactly
-- when `fold(name) like '%' || fold(text) || '%'` does (text taken literally). A non-ASCII search
-- of a product name is then one exact condition on one column (migration 0010's hex form needs the
-- folded match as a second condition, whose estimate, multiplied in, made the planner sort every
-- match of 'حليب' for a page of 10: 475 ms-1.5 s at 1M products).
CREATE FUNCTION "pos_search_key"(t text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(
    regexp_replace(encode(convert_to(pos_search_fold(t), 'UTF8'), 'hex'), '(..)', '-\1', 'g'),
    '-0', 'g'), '-1', 'h'), '-2', 'i'), '-3', 'j'), '-4', 'k'), '-5', 'l'), '-6', 'm'), '-7', 'n'),
    '-8', 'o'), '-9', 'p'), '-a', 'q'), '-b', 'r'), '-c', 's'), '-d', 't'), '-e', 'u'), '-f', 'v');
--> statement-breakpoint
-- The stored fold and key of a product name (resources/search.ts): a search's recheck of a trigram
-- candidate reads them instead of recomputing pos_search_fold (unaccent through a SQL function,
-- ~10 µs a row). The ALTERs fill them for every existing row.
-- (One ALTER for both: one rewrite of the table. ~40 µs a row for the key: a write of a name.)
ALTER TABLE "product" ADD COLUMN "name_fold" text GENERATED ALWAYS AS (pos_search_fold(name)) STORED,
  ADD COLUMN "name_key" text GENERATED ALWAYS AS (pos_search_key(name)) STORED;
--> statement-breakpoint
-- The planner estimates `like '%…%'` from the column's histogram: 100 bounds can miss a word in
-- 4 % of the names altogether (measured: 'حليب' estimated 100 rows for 37,037 at 1M, so its page
-- sorted every match); 1,000 bounds see it, and the page walks the primary key and stops at 10.
ALTER TABLE "product" ALTER COLUMN "name_fold" SET STATISTICS 1000, ALTER COLUMN "name_key" SET STATISTICS 1000;
--> statement-breakpoint
-- The indexes move from the expressions of migration 0010 to the columns.
DROP INDEX IF EXISTS "product_name_trgm";
--> statement-breakpoint
DROP INDEX IF EXISTS "product_name_prefix";
--> statement-breakpoint
DROP INDEX IF EXISTS "product_name_hex_trgm";
--> statement-breakpoint
CREATE INDEX "product_name_fold_trgm" ON "product" USING gin ("name_fold" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "product_name_fold_prefix" ON "product" ("name_fold" text_pattern_ops);
--> statement-breakpoint
CREATE INDEX "product_name_key_trgm" ON "product" USING gin ("name_key" gin_trgm_ops);
