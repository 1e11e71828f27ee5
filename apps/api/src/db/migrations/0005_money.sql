DROP INDEX "order_returned_from_uq";--> statement-breakpoint
ALTER TABLE "barcode" ALTER COLUMN "price" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "barcode" ALTER COLUMN "price" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "discount" ALTER COLUMN "rate" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "product" ALTER COLUMN "base_price" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "product" ALTER COLUMN "base_price" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "product" ALTER COLUMN "cost" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "product" ALTER COLUMN "cost" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "product_price" ALTER COLUMN "rate" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "product_price" ALTER COLUMN "base_price" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "product_variant" ALTER COLUMN "price" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "product_variant" ALTER COLUMN "purchase_price" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "supplier" ALTER COLUMN "opening_balance" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "supplier" ALTER COLUMN "opening_balance" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "customer" ALTER COLUMN "opening_balance" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "customer" ALTER COLUMN "opening_balance" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "customer" ALTER COLUMN "credit_limit" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "customer_payment" ALTER COLUMN "amount" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "order" ALTER COLUMN "adjustment" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "order" ALTER COLUMN "adjustment" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "order" ALTER COLUMN "sub_total" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "order" ALTER COLUMN "sub_total" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "order" ALTER COLUMN "item_taxes" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "order" ALTER COLUMN "item_taxes" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "order" ALTER COLUMN "total" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "order" ALTER COLUMN "total" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "order_discount" ALTER COLUMN "rate" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "order_discount" ALTER COLUMN "amount" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "order_payment" ALTER COLUMN "total" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "order_payment" ALTER COLUMN "received" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "order_payment" ALTER COLUMN "due" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "order_product" ALTER COLUMN "price" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "order_product" ALTER COLUMN "discount" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "order_product" ALTER COLUMN "discount" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "order_product" ALTER COLUMN "taxes_total" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "order_product" ALTER COLUMN "taxes_total" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "order_product" ALTER COLUMN "cost" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "order_product" ALTER COLUMN "cost" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "order_tax" ALTER COLUMN "amount" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "purchase" ALTER COLUMN "total" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "purchase" ALTER COLUMN "total" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "purchase_item" ALTER COLUMN "purchase_price" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "purchase_item_variant" ALTER COLUMN "purchase_price" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "purchase_order_item" ALTER COLUMN "price" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "purchase_order_item_variant" ALTER COLUMN "purchase_price" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "supplier_payment" ALTER COLUMN "amount" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "closing" ALTER COLUMN "opening_balance" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "closing" ALTER COLUMN "closing_balance" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "closing" ALTER COLUMN "cash_added" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "closing" ALTER COLUMN "cash_withdrawn" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "closing" ALTER COLUMN "expenses" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "expense" ALTER COLUMN "amount" SET DATA TYPE numeric(20, 3);--> statement-breakpoint
ALTER TABLE "store" ADD COLUMN "currency" varchar(3) DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE "store" ADD COLUMN "locale" varchar(35) DEFAULT 'en-US' NOT NULL;--> statement-breakpoint
ALTER TABLE "store" ADD COLUMN "time_zone" varchar(64) DEFAULT 'UTC' NOT NULL;--> statement-breakpoint
ALTER TABLE "store" ADD COLUMN "cash_rounding_step" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "store" ADD COLUMN "prices_include_tax" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "store" ADD COLUMN "legacy_tax_base" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "order" ADD COLUMN "tax_mode" varchar(10) DEFAULT 'legacy' NOT NULL;--> statement-breakpoint
ALTER TABLE "order" ADD COLUMN "rounding" numeric(20, 3) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "order_product" ADD COLUMN "order_discount" numeric(20, 3) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "order_product" ADD COLUMN "taxable" numeric(20, 3) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "order_product" ADD COLUMN "returned_quantity" numeric(20, 3) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "order_product_tax" ADD COLUMN "amount" numeric(20, 3) DEFAULT '0' NOT NULL;--> statement-breakpoint
CREATE INDEX "order_returned_from_idx" ON "order" USING btree ("returned_from_id");--> statement-breakpoint
-- Stores that existed before these settings ran the old client: they keep its tax base (new stores default to the new one).
UPDATE "store" SET "legacy_tax_base" = true;--> statement-breakpoint
-- Lines sold before: taxed the legacy way (each rate on price x quantity, before the line discount).
UPDATE "order_product" SET "taxable" = round("price" * "quantity", 2) - "discount";--> statement-breakpoint
UPDATE "order_product_tax" t SET "amount" = round(round(l."price" * l."quantity", 2) * t."rate" / 100, 2)
  FROM "order_product" l WHERE l."id" = t."order_product_id";--> statement-breakpoint
-- Orders already returned (once, whole, before partial refunds) have nothing left to return.
UPDATE "order_product" l SET "returned_quantity" = l."quantity" FROM "order" o WHERE o."id" = l."orderId" AND o."is_returned";
