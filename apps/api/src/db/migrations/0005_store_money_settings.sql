ALTER TABLE "store" ADD COLUMN "currency" varchar(3) DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE "store" ADD COLUMN "locale" varchar(35) DEFAULT 'en-US' NOT NULL;--> statement-breakpoint
ALTER TABLE "store" ADD COLUMN "time_zone" varchar(64) DEFAULT 'UTC' NOT NULL;--> statement-breakpoint
ALTER TABLE "store" ADD COLUMN "cash_rounding_step" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "store" ADD COLUMN "prices_include_tax" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "store" ADD COLUMN "legacy_tax_base" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Stores that existed before these settings ran the old client: they keep its tax base (new stores default to the new one).
UPDATE "store" SET "legacy_tax_base" = true;
