ALTER TABLE "product" ADD COLUMN "store_ids" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
UPDATE "product" p SET "store_ids" = s.ids
  FROM (SELECT "product_id", array_agg(DISTINCT "store_id" ORDER BY "store_id") AS ids FROM "product_store" GROUP BY "product_id") s
  WHERE s."product_id" = p."id";
--> statement-breakpoint
-- product.store_ids follows product_store. Incremental array edits (not a re-read of product_store):
-- under READ COMMITTED an UPDATE that waited for a concurrent writer re-applies its expression to
-- the newest row version, so two transactions linking the same product to two stores both land.
CREATE FUNCTION "product_store_ids_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE "product" SET "store_ids" = array_remove("store_ids", OLD."store_id")
      WHERE "id" = OLD."product_id" AND OLD."store_id" = ANY ("store_ids")
        AND NOT EXISTS (SELECT 1 FROM "product_store" WHERE "product_id" = OLD."product_id" AND "store_id" = OLD."store_id");
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE "product" SET "store_ids" = (SELECT array_agg(DISTINCT x ORDER BY x) FROM unnest("store_ids" || NEW."store_id") AS x)
      WHERE "id" = NEW."product_id" AND NOT (NEW."store_id" = ANY ("store_ids"));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "product_store_ids_ins" AFTER INSERT ON "product_store" FOR EACH ROW EXECUTE FUNCTION "product_store_ids_sync"();
--> statement-breakpoint
CREATE TRIGGER "product_store_ids_del" AFTER DELETE ON "product_store" FOR EACH ROW EXECUTE FUNCTION "product_store_ids_sync"();
--> statement-breakpoint
CREATE TRIGGER "product_store_ids_upd" AFTER UPDATE OF "product_id", "store_id" ON "product_store" FOR EACH ROW
  WHEN (OLD."product_id" IS DISTINCT FROM NEW."product_id" OR OLD."store_id" IS DISTINCT FROM NEW."store_id")
  EXECUTE FUNCTION "product_store_ids_sync"();
--> statement-breakpoint
-- The till's product pages (ordered by id, active only, store-scoped) as an index-only scan.
CREATE INDEX "product_list_idx" ON "product" USING btree ("id") INCLUDE ("is_active", "store_ids");
