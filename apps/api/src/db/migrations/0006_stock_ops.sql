CREATE TABLE "stock_adjustment" (
	"id" serial PRIMARY KEY NOT NULL,
	"number" integer NOT NULL,
	"store_id" integer NOT NULL,
	"note" text,
	"created_by_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stock_adjustment_line" (
	"id" serial PRIMARY KEY NOT NULL,
	"adjustment_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"variant_id" integer,
	"quantity" numeric(20, 3) NOT NULL,
	"reason" varchar(20) NOT NULL,
	"note" text,
	"cost" numeric(20, 3) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stock_count" (
	"id" serial PRIMARY KEY NOT NULL,
	"number" integer NOT NULL,
	"store_id" integer NOT NULL,
	"scope" varchar(20) NOT NULL,
	"scope_id" integer,
	"status" varchar(20) NOT NULL,
	"note" text,
	"created_by_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"approved_by_id" integer,
	"approved_at" timestamp with time zone,
	"cancelled_by_id" integer,
	"cancelled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "stock_count_line" (
	"id" serial PRIMARY KEY NOT NULL,
	"count_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"counted" numeric(20, 3) NOT NULL,
	"expected" numeric(20, 3) NOT NULL,
	"cost" numeric(20, 3) NOT NULL,
	"scans" integer DEFAULT 1 NOT NULL,
	"first_counted_by_id" integer NOT NULL,
	"first_counted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_counted_by_id" integer NOT NULL,
	"last_counted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stock_doc_counter" (
	"store_id" integer NOT NULL,
	"kind" varchar(20) NOT NULL,
	"last_number" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "stock_doc_counter_store_id_kind_pk" PRIMARY KEY("store_id","kind")
);
--> statement-breakpoint
CREATE TABLE "stock_transfer" (
	"id" serial PRIMARY KEY NOT NULL,
	"number" integer NOT NULL,
	"from_store_id" integer NOT NULL,
	"to_store_id" integer NOT NULL,
	"status" varchar(20) NOT NULL,
	"note" text,
	"loss_reason" varchar(255),
	"requested_by_id" integer NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_by_id" integer,
	"sent_at" timestamp with time zone,
	"received_by_id" integer,
	"received_at" timestamp with time zone,
	"cancelled_by_id" integer,
	"cancelled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "stock_transfer_line" (
	"id" serial PRIMARY KEY NOT NULL,
	"transfer_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"variant_id" integer,
	"requested" numeric(20, 3) NOT NULL,
	"sent" numeric(20, 3),
	"received" numeric(20, 3),
	"lost" numeric(20, 3)
);
--> statement-breakpoint
ALTER TABLE "stock_adjustment" ADD CONSTRAINT "stock_adjustment_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_adjustment" ADD CONSTRAINT "stock_adjustment_created_by_id_user_account_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."user_account"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_adjustment_line" ADD CONSTRAINT "stock_adjustment_line_adjustment_id_stock_adjustment_id_fk" FOREIGN KEY ("adjustment_id") REFERENCES "public"."stock_adjustment"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_adjustment_line" ADD CONSTRAINT "stock_adjustment_line_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_adjustment_line" ADD CONSTRAINT "stock_adjustment_line_variant_id_product_variant_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variant"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_count" ADD CONSTRAINT "stock_count_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_count" ADD CONSTRAINT "stock_count_created_by_id_user_account_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."user_account"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_count" ADD CONSTRAINT "stock_count_approved_by_id_user_account_id_fk" FOREIGN KEY ("approved_by_id") REFERENCES "public"."user_account"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_count" ADD CONSTRAINT "stock_count_cancelled_by_id_user_account_id_fk" FOREIGN KEY ("cancelled_by_id") REFERENCES "public"."user_account"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_count_line" ADD CONSTRAINT "stock_count_line_count_id_stock_count_id_fk" FOREIGN KEY ("count_id") REFERENCES "public"."stock_count"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_count_line" ADD CONSTRAINT "stock_count_line_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_count_line" ADD CONSTRAINT "stock_count_line_first_counted_by_id_user_account_id_fk" FOREIGN KEY ("first_counted_by_id") REFERENCES "public"."user_account"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_count_line" ADD CONSTRAINT "stock_count_line_last_counted_by_id_user_account_id_fk" FOREIGN KEY ("last_counted_by_id") REFERENCES "public"."user_account"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_doc_counter" ADD CONSTRAINT "stock_doc_counter_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_transfer" ADD CONSTRAINT "stock_transfer_from_store_id_store_id_fk" FOREIGN KEY ("from_store_id") REFERENCES "public"."store"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_transfer" ADD CONSTRAINT "stock_transfer_to_store_id_store_id_fk" FOREIGN KEY ("to_store_id") REFERENCES "public"."store"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_transfer" ADD CONSTRAINT "stock_transfer_requested_by_id_user_account_id_fk" FOREIGN KEY ("requested_by_id") REFERENCES "public"."user_account"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_transfer" ADD CONSTRAINT "stock_transfer_sent_by_id_user_account_id_fk" FOREIGN KEY ("sent_by_id") REFERENCES "public"."user_account"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_transfer" ADD CONSTRAINT "stock_transfer_received_by_id_user_account_id_fk" FOREIGN KEY ("received_by_id") REFERENCES "public"."user_account"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_transfer" ADD CONSTRAINT "stock_transfer_cancelled_by_id_user_account_id_fk" FOREIGN KEY ("cancelled_by_id") REFERENCES "public"."user_account"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_transfer_line" ADD CONSTRAINT "stock_transfer_line_transfer_id_stock_transfer_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."stock_transfer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_transfer_line" ADD CONSTRAINT "stock_transfer_line_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_transfer_line" ADD CONSTRAINT "stock_transfer_line_variant_id_product_variant_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variant"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "stock_adjustment_number_uq" ON "stock_adjustment" USING btree ("store_id","number");--> statement-breakpoint
CREATE INDEX "stock_adjustment_line_adjustment_idx" ON "stock_adjustment_line" USING btree ("adjustment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "stock_count_number_uq" ON "stock_count" USING btree ("store_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "stock_count_line_uq" ON "stock_count_line" USING btree ("count_id","product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "stock_transfer_number_uq" ON "stock_transfer" USING btree ("from_store_id","number");--> statement-breakpoint
CREATE INDEX "stock_transfer_to_idx" ON "stock_transfer" USING btree ("to_store_id");--> statement-breakpoint
CREATE INDEX "stock_transfer_line_transfer_idx" ON "stock_transfer_line" USING btree ("transfer_id");