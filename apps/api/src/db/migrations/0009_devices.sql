CREATE TABLE "print_job" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"kind" varchar(20) NOT NULL,
	"order_id" integer,
	"user_id" integer,
	"payload" "bytea" NOT NULL,
	"opens_drawer" boolean DEFAULT false NOT NULL,
	"status" varchar(20) DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"printed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "receipt_email" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"user_id" integer,
	"recipient" varchar(254) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device" ADD COLUMN "paper_width" integer DEFAULT 80 NOT NULL;--> statement-breakpoint
ALTER TABLE "device" ADD COLUMN "delivered_by" varchar(10) DEFAULT 'server' NOT NULL;--> statement-breakpoint
ALTER TABLE "device" ADD COLUMN "agent_key_hash" varchar(64);--> statement-breakpoint
ALTER TABLE "product" ADD COLUMN "barcode_type" varchar(10);--> statement-breakpoint
ALTER TABLE "product" ADD COLUMN "price_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "print_job" ADD CONSTRAINT "print_job_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "print_job" ADD CONSTRAINT "print_job_order_id_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."order"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "print_job" ADD CONSTRAINT "print_job_user_id_user_account_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user_account"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipt_email" ADD CONSTRAINT "receipt_email_order_id_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipt_email" ADD CONSTRAINT "receipt_email_user_id_user_account_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user_account"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "print_job_due_idx" ON "print_job" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "print_job_device_idx" ON "print_job" USING btree ("device_id","created_at");--> statement-breakpoint
CREATE INDEX "receipt_email_user_idx" ON "receipt_email" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "receipt_email_order_idx" ON "receipt_email" USING btree ("order_id","created_at");--> statement-breakpoint
CREATE FUNCTION product_price_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.base_price IS DISTINCT FROM OLD.base_price THEN NEW.price_changed_at := now(); END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER product_price_changed BEFORE UPDATE OF base_price ON "product" FOR EACH ROW EXECUTE FUNCTION product_price_changed();
