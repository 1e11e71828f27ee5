CREATE TABLE "product_variant_store" (
	"id" serial PRIMARY KEY NOT NULL,
	"variant_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	"quantity" numeric(20, 3) DEFAULT '0' NOT NULL
);
--> statement-breakpoint
DROP INDEX "stock_count_line_uq";--> statement-breakpoint
ALTER TABLE "stock_count_line" ADD COLUMN "variant_id" integer;--> statement-breakpoint
ALTER TABLE "product_variant_store" ADD CONSTRAINT "product_variant_store_variant_id_product_variant_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variant"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_variant_store" ADD CONSTRAINT "product_variant_store_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "product_variant_store_uq" ON "product_variant_store" USING btree ("variant_id","store_id");--> statement-breakpoint
CREATE INDEX "product_variant_store_store_idx" ON "product_variant_store" USING btree ("store_id");--> statement-breakpoint
ALTER TABLE "stock_count_line" ADD CONSTRAINT "stock_count_line_variant_id_product_variant_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variant"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "stock_count_line_uq" ON "stock_count_line" USING btree ("count_id","product_id",coalesce("variant_id", 0));--> statement-breakpoint
-- ---------------------------------------------------------------------------------------------
-- Hand-written block (issue 25, per-store variant stock): re-append as it is after renumbering.
-- Until now variant stock was one figure for all stores (product_variant.quantity) and its ledger
-- rows had store_id NULL. Every variant's existing stock goes to ONE store, its product's "home":
--   the product's only product_store row's store; with several rows, the lowest store id among
--   them; with none, the lowest store id of the shop (no store at all: the rows stay as they are).
-- 1. The NULL-store variant ledger rows are given that store;
-- 2. a variant whose quantity differs from its ledger sum (a writer that bypassed the ledger)
--    gets one 'adjustment' row in that store for the difference, so nothing changes its figure;
-- 3. product_variant_store is the ledger's sum per (variant, store).
-- Afterwards SUM(stock_movement.quantity) per (variant, store) = product_variant_store.quantity and
-- product_variant.quantity = the sum of its product_variant_store rows, for old data too.
WITH "home" AS (
  SELECT v."id" AS "variant_id", v."product_id", v."quantity",
    COALESCE((SELECT min(ps."store_id") FROM "product_store" ps WHERE ps."product_id" = v."product_id"),
             (SELECT min(s."id") FROM "store" s)) AS "store_id"
  FROM "product_variant" v)
UPDATE "stock_movement" m SET "store_id" = h."store_id"
  FROM "home" h
  WHERE m."variant_id" = h."variant_id" AND m."store_id" IS NULL AND h."store_id" IS NOT NULL;--> statement-breakpoint
WITH "home" AS (
  SELECT v."id" AS "variant_id", v."product_id", v."quantity",
    COALESCE((SELECT min(ps."store_id") FROM "product_store" ps WHERE ps."product_id" = v."product_id"),
             (SELECT min(s."id") FROM "store" s)) AS "store_id"
  FROM "product_variant" v)
INSERT INTO "stock_movement" ("product_id", "variant_id", "store_id", "quantity", "reason")
  SELECT h."product_id", h."variant_id", h."store_id", h."quantity" - COALESCE(l."total", 0), 'adjustment'
  FROM "home" h
  LEFT JOIN (SELECT "variant_id", sum("quantity") AS "total" FROM "stock_movement" WHERE "variant_id" IS NOT NULL GROUP BY "variant_id") l
    ON l."variant_id" = h."variant_id"
  WHERE h."store_id" IS NOT NULL AND h."quantity" <> COALESCE(l."total", 0);--> statement-breakpoint
INSERT INTO "product_variant_store" ("variant_id", "store_id", "quantity")
  SELECT "variant_id", "store_id", sum("quantity") FROM "stock_movement"
  WHERE "variant_id" IS NOT NULL AND "store_id" IS NOT NULL
  GROUP BY "variant_id", "store_id"
  ORDER BY "variant_id", "store_id";
