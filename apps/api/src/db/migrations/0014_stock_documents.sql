ALTER TABLE "store" ADD COLUMN "allow_negative_stock" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "stock_movement" ADD COLUMN "document_kind" varchar(20);--> statement-breakpoint
ALTER TABLE "stock_movement" ADD COLUMN "document_id" integer;--> statement-breakpoint
CREATE INDEX "stock_movement_product_time_idx" ON "stock_movement" USING btree ("product_id","created_at","id");--> statement-breakpoint
-- ---------------------------------------------------------------------------------------------
-- Hand-written block (issue 25.6, movement history documents): re-append as it is after renumbering.
-- Rows written before this migration by a transfer, count or adjustment get their document: a
-- step's ledger rows and its document share the transaction's now() (created_at = sent_at /
-- received_at / approved_at / the adjustment's created_at), in the document's store, for its products.
UPDATE "stock_movement" m SET "document_kind" = 'transfer', "document_id" = t."id"
  FROM "stock_transfer" t
  WHERE m."document_kind" IS NULL AND m."variant_id" IS NULL
    AND ((m."reason" = 'transfer_out' AND m."store_id" = t."from_store_id" AND m."created_at" = t."sent_at")
      OR (m."reason" = 'transfer_in' AND m."store_id" = t."to_store_id" AND m."created_at" = t."received_at"))
    AND EXISTS (SELECT 1 FROM "stock_transfer_line" l WHERE l."transfer_id" = t."id" AND l."product_id" = m."product_id");--> statement-breakpoint
UPDATE "stock_movement" m SET "document_kind" = 'count', "document_id" = c."id"
  FROM "stock_count" c
  WHERE m."document_kind" IS NULL AND m."variant_id" IS NULL AND m."reason" = 'count'
    AND m."store_id" = c."store_id" AND m."created_at" = c."approved_at"
    AND EXISTS (SELECT 1 FROM "stock_count_line" l WHERE l."count_id" = c."id" AND l."product_id" = m."product_id");--> statement-breakpoint
UPDATE "stock_movement" m SET "document_kind" = 'adjustment', "document_id" = a."id"
  FROM "stock_adjustment" a
  WHERE m."document_kind" IS NULL AND m."created_at" = a."created_at"
    AND EXISTS (SELECT 1 FROM "stock_adjustment_line" l WHERE l."adjustment_id" = a."id" AND l."product_id" = m."product_id" AND l."reason" = m."reason"
      AND ((m."variant_id" IS NULL AND m."store_id" = a."store_id") OR m."variant_id" = l."variant_id"));
