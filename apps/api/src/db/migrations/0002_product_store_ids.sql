ALTER TABLE "product" ADD COLUMN "store_ids" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
UPDATE "product" p SET "store_ids" = s.ids
  FROM (SELECT "product_id", array_agg(DISTINCT "store_id" ORDER BY "store_id") AS ids FROM "product_store" GROUP BY "product_id") s
  WHERE s."product_id" = p."id";
--> statement-breakpoint
-- product.store_ids follows product_store. Inserts and deletes: one set-based UPDATE per statement
-- (a bulk load of 300,000 stock rows is one UPDATE, not 300,000). The new value is computed from the
-- product row being updated (not by re-reading product_store): under READ COMMITTED an UPDATE that
-- waited for a concurrent writer re-applies it to the newest row version, so two transactions
-- linking the same product to two stores both land.
CREATE FUNCTION "product_store_ids_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Every sale upserts its store rows: nothing inserted (the usual case) costs one probe, no UPDATE.
  IF NOT EXISTS (SELECT 1 FROM added) THEN RETURN NULL; END IF;
  UPDATE "product" p SET "store_ids" = (SELECT array_agg(DISTINCT x ORDER BY x) FROM unnest(p."store_ids" || n.ids) AS x)
    FROM (SELECT "product_id", array_agg("store_id") AS ids FROM added GROUP BY "product_id") n
    WHERE p."id" = n."product_id" AND NOT (p."store_ids" @> n.ids);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "product_store_ids_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM removed) THEN RETURN NULL; END IF;
  UPDATE "product" p SET "store_ids" = array(SELECT x FROM unnest(p."store_ids") AS x WHERE NOT (x = ANY (r.ids)) ORDER BY x)
    FROM (SELECT "product_id", array_agg("store_id") AS ids FROM removed GROUP BY "product_id") r
    WHERE p."id" = r."product_id" AND p."store_ids" && r.ids;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Moving a row to another product or store (rare; the stock updates of every sale do not fire it).
CREATE FUNCTION "product_store_ids_moved"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "product" SET "store_ids" = array_remove("store_ids", OLD."store_id") WHERE "id" = OLD."product_id";
  UPDATE "product" SET "store_ids" = (SELECT array_agg(DISTINCT x ORDER BY x) FROM unnest("store_ids" || NEW."store_id") AS x)
    WHERE "id" = NEW."product_id";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "product_store_ids_ins" AFTER INSERT ON "product_store" REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "product_store_ids_added"();
--> statement-breakpoint
CREATE TRIGGER "product_store_ids_del" AFTER DELETE ON "product_store" REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION "product_store_ids_removed"();
--> statement-breakpoint
CREATE TRIGGER "product_store_ids_upd" AFTER UPDATE OF "product_id", "store_id" ON "product_store" FOR EACH ROW
  WHEN (OLD."product_id" IS DISTINCT FROM NEW."product_id" OR OLD."store_id" IS DISTINCT FROM NEW."store_id")
  EXECUTE FUNCTION "product_store_ids_moved"();
--> statement-breakpoint
-- The till's product pages (ordered by id, active only, store-scoped) as an index-only scan.
CREATE INDEX "product_list_idx" ON "product" USING btree ("id") INCLUDE ("is_active", "store_ids");
