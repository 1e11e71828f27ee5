DROP INDEX "product_name_idx";--> statement-breakpoint
CREATE INDEX "product_name_idx" ON "product" USING btree ("name","id") INCLUDE ("is_active", "store_ids");