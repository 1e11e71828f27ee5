-- Issue 30.1: indexed search. Every partial-match filter compares pos_search_fold(column) with the
-- folded search text (resources/search.ts): 3+ characters as a substring through a GIN trigram
-- index, 1-2 characters as a prefix through a b-tree (text_pattern_ops) on the same expression.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
-- The folding a shop's search ignores: case, Latin accents (unaccent: 'cafe' finds 'Café'), Arabic
-- harakat, superscript alef and tatweel (deleted by translate), and the alef/yaa/taa-marbuta
-- spellings (أ إ آ ٱ -> ا, ى -> ي, ة -> ه). IMMUTABLE so that it can be indexed: it names its
-- dictionary, whose rules do not change under a running shop (a changed unaccent.rules needs a
-- REINDEX of the *_trgm and *_prefix indexes).
CREATE FUNCTION "pos_search_fold"(t text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN lower(public.unaccent('public.unaccent'::regdictionary, translate(t, 'أإآٱىةًٌٍَُِّْٰٕٖٜٟٓٔٗ٘ٙٚٛٝٞـ', 'اااايه')));
--> statement-breakpoint
-- pg_trgm takes only letters its database's locale calls letters: the shop's own engine is
-- initialised with the C locale, where Arabic (any non-ASCII) letters are separators and a
-- trigram index cannot find 'حليب'. The folded text as UTF-8 hex is ASCII: its trigram index
-- answers non-ASCII searches (with the folded match as the exact recheck) on any locale.
CREATE FUNCTION "pos_search_hex"(t text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN encode(convert_to(pos_search_fold(t), 'UTF8'), 'hex');
--> statement-breakpoint
CREATE INDEX "product_name_hex_trgm" ON "product" USING gin ("pos_search_hex"("name") gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "customer_name_hex_trgm" ON "customer" USING gin ("pos_search_hex"("name") gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "order_customer_name_hex_trgm" ON "order" USING gin ("pos_search_hex"("customer_name") gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "product_name_trgm" ON "product" USING gin ("pos_search_fold"("name") gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "product_name_prefix" ON "product" ("pos_search_fold"("name") text_pattern_ops);
--> statement-breakpoint
CREATE INDEX "product_sku_trgm" ON "product" USING gin ("pos_search_fold"("sku") gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "product_sku_prefix" ON "product" ("pos_search_fold"("sku") text_pattern_ops);
--> statement-breakpoint
CREATE INDEX "product_sku_idx" ON "product" ("sku");
--> statement-breakpoint
CREATE INDEX "product_variant_sku_idx" ON "product_variant" ("sku");
--> statement-breakpoint
CREATE INDEX "customer_name_trgm" ON "customer" USING gin ("pos_search_fold"("name") gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "customer_name_prefix" ON "customer" ("pos_search_fold"("name") text_pattern_ops);
--> statement-breakpoint
CREATE INDEX "customer_phone_trgm" ON "customer" USING gin ("pos_search_fold"("phone") gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "customer_phone_prefix" ON "customer" ("pos_search_fold"("phone") text_pattern_ops);
--> statement-breakpoint
CREATE INDEX "customer_cnic_trgm" ON "customer" USING gin ("pos_search_fold"("cnic") gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "customer_cnic_prefix" ON "customer" ("pos_search_fold"("cnic") text_pattern_ops);
--> statement-breakpoint
CREATE INDEX "customer_email_trgm" ON "customer" USING gin ("pos_search_fold"("email") gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "customer_email_prefix" ON "customer" ("pos_search_fold"("email") text_pattern_ops);
--> statement-breakpoint
CREATE INDEX "order_customer_name_trgm" ON "order" USING gin ("pos_search_fold"("customer_name") gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "order_customer_name_prefix" ON "order" ("pos_search_fold"("customer_name") text_pattern_ops);
--> statement-breakpoint
CREATE INDEX "order_order_id_idx" ON "order" ("order_id");
--> statement-breakpoint
CREATE INDEX "purchase_number_trgm" ON "purchase" USING gin ("pos_search_fold"("purchase_number") gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "purchase_number_prefix" ON "purchase" ("pos_search_fold"("purchase_number") text_pattern_ops);
