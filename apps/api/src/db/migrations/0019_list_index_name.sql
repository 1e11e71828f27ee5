-- Issue 30.1: a search of two common words that seldom stand together at 1,000,000 products
-- ('light cola', 1 % of the names) walks the product ids until it has its page and its count to 101
-- (10,900 names read, their heap pages with them): 2.2 ms of PostgreSQL, over the 2 ms budget.
-- The folded name beside the id in the list index makes that walk an index-only scan (no heap page
-- read per name): 1.4 ms (bench/search-explain.ts). The same index still serves the till's product
-- pages and counts (id order, active, store-scoped); it grows from ~30 to ~63 MB at 1M.
DROP INDEX IF EXISTS "product_list_idx";
--> statement-breakpoint
CREATE INDEX "product_list_idx" ON "product" USING btree ("id") INCLUDE ("is_active", "store_ids", "name_fold");
