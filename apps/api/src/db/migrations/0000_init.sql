CREATE TABLE "login_attempt" (
	"key" varchar(255) PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"window_start" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "password_reset" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_hash" varchar(128) NOT NULL,
	"user_id" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refresh_token" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_hash" varchar(128) NOT NULL,
	"user_id" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_account" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" varchar(180) NOT NULL,
	"password" text NOT NULL,
	"display_name" varchar(255) NOT NULL,
	"email" varchar(255),
	"roles" jsonb DEFAULT '["ROLE_USER"]'::jsonb NOT NULL,
	"locale" varchar(8),
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_store" (
	"user_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	CONSTRAINT "user_store_user_id_store_id_pk" PRIMARY KEY("user_id","store_id")
);
--> statement-breakpoint
CREATE TABLE "store" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(100) NOT NULL,
	"location" varchar(255),
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "store_counter" (
	"store_id" integer PRIMARY KEY NOT NULL,
	"last_order_id" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "terminal" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" varchar(255) NOT NULL,
	"description" varchar(255),
	"store_id" integer,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "barcode" (
	"id" serial PRIMARY KEY NOT NULL,
	"barcode" varchar(255) NOT NULL,
	"item_id" integer,
	"variant_id" integer,
	"price" numeric(20, 2) DEFAULT '0' NOT NULL,
	"measurement" varchar(255),
	"unit" varchar(255),
	"usages" integer,
	"used" integer,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "brand" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(255) NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "brand_store" (
	"brand_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	CONSTRAINT "brand_store_brand_id_store_id_pk" PRIMARY KEY("brand_id","store_id")
);
--> statement-breakpoint
CREATE TABLE "category" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(255) NOT NULL,
	"type" varchar(255) DEFAULT 'product',
	"parent_id" integer,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "category_store" (
	"category_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	CONSTRAINT "category_store_category_id_store_id_pk" PRIMARY KEY("category_id","store_id")
);
--> statement-breakpoint
CREATE TABLE "department" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(255) NOT NULL,
	"description" varchar(255),
	"store_id" integer,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(255) NOT NULL,
	"ip_address" varchar(255) NOT NULL,
	"port" integer NOT NULL,
	"prints" integer DEFAULT 1 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "discount" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(255) NOT NULL,
	"rate" numeric(20, 2),
	"rate_type" varchar(20),
	"scope" varchar(20),
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "discount_store" (
	"discount_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	CONSTRAINT "discount_store_discount_id_store_id_pk" PRIMARY KEY("discount_id","store_id")
);
--> statement-breakpoint
CREATE TABLE "payment_store" (
	"payment_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	CONSTRAINT "payment_store_payment_id_store_id_pk" PRIMARY KEY("payment_id","store_id")
);
--> statement-breakpoint
CREATE TABLE "payment" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(255) NOT NULL,
	"type" varchar(50) NOT NULL,
	"can_have_change_due" boolean DEFAULT false NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(255) NOT NULL,
	"sku" varchar(255),
	"barcode" varchar(255),
	"base_quantity" integer DEFAULT 1,
	"is_available" boolean DEFAULT true NOT NULL,
	"base_price" numeric(20, 2) DEFAULT '0' NOT NULL,
	"cost" numeric(20, 2) DEFAULT '0' NOT NULL,
	"quantity" numeric(20, 3),
	"purchase_unit" varchar(20),
	"sale_unit" varchar(20),
	"department_id" integer,
	"manage_inventory" boolean DEFAULT false NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_brand" (
	"product_id" integer NOT NULL,
	"brand_id" integer NOT NULL,
	CONSTRAINT "product_brand_product_id_brand_id_pk" PRIMARY KEY("product_id","brand_id")
);
--> statement-breakpoint
CREATE TABLE "product_category" (
	"product_id" integer NOT NULL,
	"category_id" integer NOT NULL,
	CONSTRAINT "product_category_product_id_category_id_pk" PRIMARY KEY("product_id","category_id")
);
--> statement-breakpoint
CREATE TABLE "product_price" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"product_variant_id" integer,
	"date" integer,
	"time" time,
	"time_to" time,
	"day" varchar(20),
	"week" integer,
	"month" integer,
	"quarter" integer,
	"rate" numeric(20, 2),
	"min_quantity" numeric(20, 3),
	"max_quantity" numeric(20, 3),
	"base_price" numeric(20, 2) NOT NULL,
	"base_quantity" numeric(20, 3),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_store" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	"quantity" numeric(20, 3) DEFAULT '0' NOT NULL,
	"location" varchar(255),
	"re_order_level" numeric(20, 3)
);
--> statement-breakpoint
CREATE TABLE "product_supplier" (
	"product_id" integer NOT NULL,
	"supplier_id" integer NOT NULL,
	CONSTRAINT "product_supplier_product_id_supplier_id_pk" PRIMARY KEY("product_id","supplier_id")
);
--> statement-breakpoint
CREATE TABLE "product_tax" (
	"product_id" integer NOT NULL,
	"tax_id" integer NOT NULL,
	CONSTRAINT "product_tax_product_id_tax_id_pk" PRIMARY KEY("product_id","tax_id")
);
--> statement-breakpoint
CREATE TABLE "product_terminal" (
	"product_id" integer NOT NULL,
	"terminal_id" integer NOT NULL,
	CONSTRAINT "product_terminal_product_id_terminal_id_pk" PRIMARY KEY("product_id","terminal_id")
);
--> statement-breakpoint
CREATE TABLE "product_variant" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"name" varchar(255),
	"attribute_name" varchar(255),
	"attribute_value" varchar(255),
	"barcode" varchar(255),
	"sku" varchar(255),
	"price" numeric(20, 2),
	"purchase_price" numeric(20, 2),
	"quantity" numeric(20, 3) DEFAULT '0' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "setting" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(255) NOT NULL,
	"value" text,
	"description" varchar(255),
	"type" varchar(255),
	"user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stock_movement" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"variant_id" integer,
	"store_id" integer,
	"quantity" numeric(20, 3) NOT NULL,
	"reason" varchar(40) NOT NULL,
	"order_id" integer,
	"purchase_id" integer,
	"user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "supplier" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(255) NOT NULL,
	"phone" varchar(50),
	"email" varchar(255),
	"whats_app" varchar(50),
	"fax" varchar(50),
	"address" varchar(255),
	"opening_balance" numeric(20, 2) DEFAULT '0' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "supplier_store" (
	"supplier_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	CONSTRAINT "supplier_store_supplier_id_store_id_pk" PRIMARY KEY("supplier_id","store_id")
);
--> statement-breakpoint
CREATE TABLE "tax" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(255) NOT NULL,
	"rate" numeric(10, 2) NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tax_store" (
	"tax_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	CONSTRAINT "tax_store_tax_id_store_id_pk" PRIMARY KEY("tax_id","store_id")
);
--> statement-breakpoint
CREATE TABLE "customer" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(255) NOT NULL,
	"email" varchar(255),
	"phone" varchar(50),
	"birthday" date,
	"address" varchar(255),
	"lat" double precision,
	"lng" double precision,
	"cnic" varchar(255),
	"opening_balance" numeric(20, 2) DEFAULT '0' NOT NULL,
	"allow_credit_sale" boolean DEFAULT false NOT NULL,
	"credit_limit" numeric(20, 2),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customer_payment" (
	"id" serial PRIMARY KEY NOT NULL,
	"amount" numeric(20, 2) NOT NULL,
	"order_id" integer,
	"customer_id" integer NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer,
	"customer_id" integer,
	"user_id" integer,
	"store_id" integer NOT NULL,
	"terminal_id" integer,
	"is_suspended" boolean DEFAULT false NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"is_returned" boolean DEFAULT false NOT NULL,
	"is_dispatched" boolean DEFAULT false NOT NULL,
	"status" varchar(30) NOT NULL,
	"previous_status" varchar(30),
	"description" text,
	"customer_name" varchar(255),
	"adjustment" numeric(20, 2) DEFAULT '0' NOT NULL,
	"sub_total" numeric(20, 2) DEFAULT '0' NOT NULL,
	"item_taxes" numeric(20, 2) DEFAULT '0' NOT NULL,
	"total" numeric(20, 2) DEFAULT '0' NOT NULL,
	"returned_from_id" integer,
	"stock_applied" boolean DEFAULT false NOT NULL,
	"client_id" varchar(100),
	"request_hash" varchar(64),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_discount" (
	"id" serial PRIMARY KEY NOT NULL,
	"orderId" integer NOT NULL,
	"type_id" integer,
	"rate" numeric(20, 2),
	"rate_type" varchar(20),
	"amount" numeric(20, 2) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_payment" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"type_id" integer,
	"total" numeric(20, 2) NOT NULL,
	"received" numeric(20, 2) NOT NULL,
	"due" numeric(20, 2) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_product" (
	"id" serial PRIMARY KEY NOT NULL,
	"orderId" integer NOT NULL,
	"product_id" integer NOT NULL,
	"variant_id" integer,
	"quantity" numeric(20, 3) NOT NULL,
	"price" numeric(20, 2) NOT NULL,
	"discount" numeric(20, 2) DEFAULT '0' NOT NULL,
	"taxes_total" numeric(20, 2) DEFAULT '0' NOT NULL,
	"cost" numeric(20, 2) DEFAULT '0' NOT NULL,
	"is_suspended" boolean DEFAULT false NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"is_returned" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_product_tax" (
	"order_product_id" integer NOT NULL,
	"tax_id" integer NOT NULL,
	"rate" numeric(10, 2) NOT NULL,
	CONSTRAINT "order_product_tax_order_product_id_tax_id_pk" PRIMARY KEY("order_product_id","tax_id")
);
--> statement-breakpoint
CREATE TABLE "order_tax" (
	"id" serial PRIMARY KEY NOT NULL,
	"orderId" integer NOT NULL,
	"type_id" integer,
	"rate" numeric(10, 2) NOT NULL,
	"amount" numeric(20, 2) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "purchase" (
	"id" serial PRIMARY KEY NOT NULL,
	"supplier_id" integer,
	"store_id" integer NOT NULL,
	"purchased_by_id" integer NOT NULL,
	"purchase_order_id" integer,
	"purchase_number" varchar(255) NOT NULL,
	"purchase_mode" varchar(50) NOT NULL,
	"payment_type_id" integer,
	"update_stocks" boolean DEFAULT true NOT NULL,
	"update_price" boolean DEFAULT true NOT NULL,
	"total" numeric(20, 2) DEFAULT '0' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "purchase_item" (
	"id" serial PRIMARY KEY NOT NULL,
	"purchase_id" integer NOT NULL,
	"item_id" integer NOT NULL,
	"quantity" numeric(20, 3) NOT NULL,
	"quantity_requested" numeric(20, 3),
	"purchase_price" numeric(20, 2) NOT NULL,
	"purchase_unit" varchar(255),
	"barcode" varchar(255),
	"comments" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "purchase_item_variant" (
	"id" serial PRIMARY KEY NOT NULL,
	"purchase_item_id" integer NOT NULL,
	"variant_id" integer NOT NULL,
	"quantity" numeric(20, 3) NOT NULL,
	"quantity_requested" numeric(20, 3),
	"purchase_price" numeric(20, 2) NOT NULL,
	"purchase_unit" varchar(255),
	"comments" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "purchase_order" (
	"id" serial PRIMARY KEY NOT NULL,
	"supplier_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	"po_number" varchar(255) NOT NULL,
	"is_used" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "purchase_order_item" (
	"id" serial PRIMARY KEY NOT NULL,
	"purchase_order_id" integer NOT NULL,
	"item_id" integer NOT NULL,
	"quantity" numeric(20, 3) NOT NULL,
	"price" numeric(20, 2) NOT NULL,
	"unit" varchar(255),
	"comments" varchar(255),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "purchase_order_item_variant" (
	"id" serial PRIMARY KEY NOT NULL,
	"purchase_order_item_id" integer NOT NULL,
	"variant_id" integer NOT NULL,
	"quantity" numeric(20, 3) NOT NULL,
	"purchase_price" numeric(20, 2) NOT NULL,
	"purchase_unit" varchar(255),
	"comments" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "supplier_payment" (
	"id" serial PRIMARY KEY NOT NULL,
	"amount" numeric(20, 2) NOT NULL,
	"purchase_id" integer,
	"supplier_id" integer NOT NULL,
	"description" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "closing" (
	"id" serial PRIMARY KEY NOT NULL,
	"date_from" timestamp with time zone DEFAULT now() NOT NULL,
	"date_to" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"opened_by_id" integer,
	"closed_by_id" integer,
	"store_id" integer NOT NULL,
	"terminal_id" integer,
	"opening_balance" numeric(20, 2),
	"closing_balance" numeric(20, 2),
	"cash_added" numeric(20, 2),
	"cash_withdrawn" numeric(20, 2),
	"expenses" numeric(20, 2),
	"data" jsonb,
	"denominations" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "expense" (
	"id" serial PRIMARY KEY NOT NULL,
	"amount" numeric(20, 2) NOT NULL,
	"description" text NOT NULL,
	"user_id" integer NOT NULL,
	"store_id" integer,
	"deleted_at" timestamp with time zone,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "password_reset" ADD CONSTRAINT "password_reset_user_id_user_account_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_token" ADD CONSTRAINT "refresh_token_user_id_user_account_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_store" ADD CONSTRAINT "user_store_user_id_user_account_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_store" ADD CONSTRAINT "user_store_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_counter" ADD CONSTRAINT "store_counter_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "terminal" ADD CONSTRAINT "terminal_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "barcode" ADD CONSTRAINT "barcode_item_id_product_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "barcode" ADD CONSTRAINT "barcode_variant_id_product_variant_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variant"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brand_store" ADD CONSTRAINT "brand_store_brand_id_brand_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brand"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brand_store" ADD CONSTRAINT "brand_store_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "category_store" ADD CONSTRAINT "category_store_category_id_category_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."category"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "category_store" ADD CONSTRAINT "category_store_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "department" ADD CONSTRAINT "department_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_store" ADD CONSTRAINT "discount_store_discount_id_discount_id_fk" FOREIGN KEY ("discount_id") REFERENCES "public"."discount"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_store" ADD CONSTRAINT "discount_store_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_store" ADD CONSTRAINT "payment_store_payment_id_payment_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payment"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_store" ADD CONSTRAINT "payment_store_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product" ADD CONSTRAINT "product_department_id_department_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."department"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_brand" ADD CONSTRAINT "product_brand_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_brand" ADD CONSTRAINT "product_brand_brand_id_brand_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brand"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_category" ADD CONSTRAINT "product_category_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_category" ADD CONSTRAINT "product_category_category_id_category_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."category"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_price" ADD CONSTRAINT "product_price_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_price" ADD CONSTRAINT "product_price_product_variant_id_product_variant_id_fk" FOREIGN KEY ("product_variant_id") REFERENCES "public"."product_variant"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_store" ADD CONSTRAINT "product_store_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_store" ADD CONSTRAINT "product_store_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_supplier" ADD CONSTRAINT "product_supplier_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_supplier" ADD CONSTRAINT "product_supplier_supplier_id_supplier_id_fk" FOREIGN KEY ("supplier_id") REFERENCES "public"."supplier"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_tax" ADD CONSTRAINT "product_tax_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_tax" ADD CONSTRAINT "product_tax_tax_id_tax_id_fk" FOREIGN KEY ("tax_id") REFERENCES "public"."tax"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_terminal" ADD CONSTRAINT "product_terminal_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_terminal" ADD CONSTRAINT "product_terminal_terminal_id_terminal_id_fk" FOREIGN KEY ("terminal_id") REFERENCES "public"."terminal"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_variant" ADD CONSTRAINT "product_variant_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_movement" ADD CONSTRAINT "stock_movement_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_movement" ADD CONSTRAINT "stock_movement_variant_id_product_variant_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variant"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_movement" ADD CONSTRAINT "stock_movement_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supplier_store" ADD CONSTRAINT "supplier_store_supplier_id_supplier_id_fk" FOREIGN KEY ("supplier_id") REFERENCES "public"."supplier"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supplier_store" ADD CONSTRAINT "supplier_store_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_store" ADD CONSTRAINT "tax_store_tax_id_tax_id_fk" FOREIGN KEY ("tax_id") REFERENCES "public"."tax"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_store" ADD CONSTRAINT "tax_store_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_payment" ADD CONSTRAINT "customer_payment_order_id_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."order"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_payment" ADD CONSTRAINT "customer_payment_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order" ADD CONSTRAINT "order_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order" ADD CONSTRAINT "order_user_id_user_account_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user_account"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order" ADD CONSTRAINT "order_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order" ADD CONSTRAINT "order_terminal_id_terminal_id_fk" FOREIGN KEY ("terminal_id") REFERENCES "public"."terminal"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_discount" ADD CONSTRAINT "order_discount_orderId_order_id_fk" FOREIGN KEY ("orderId") REFERENCES "public"."order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_discount" ADD CONSTRAINT "order_discount_type_id_discount_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."discount"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_payment" ADD CONSTRAINT "order_payment_order_id_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_payment" ADD CONSTRAINT "order_payment_type_id_payment_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."payment"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_product" ADD CONSTRAINT "order_product_orderId_order_id_fk" FOREIGN KEY ("orderId") REFERENCES "public"."order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_product" ADD CONSTRAINT "order_product_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_product" ADD CONSTRAINT "order_product_variant_id_product_variant_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variant"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_product_tax" ADD CONSTRAINT "order_product_tax_order_product_id_order_product_id_fk" FOREIGN KEY ("order_product_id") REFERENCES "public"."order_product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_product_tax" ADD CONSTRAINT "order_product_tax_tax_id_tax_id_fk" FOREIGN KEY ("tax_id") REFERENCES "public"."tax"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_tax" ADD CONSTRAINT "order_tax_orderId_order_id_fk" FOREIGN KEY ("orderId") REFERENCES "public"."order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_tax" ADD CONSTRAINT "order_tax_type_id_tax_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."tax"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase" ADD CONSTRAINT "purchase_supplier_id_supplier_id_fk" FOREIGN KEY ("supplier_id") REFERENCES "public"."supplier"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase" ADD CONSTRAINT "purchase_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase" ADD CONSTRAINT "purchase_purchased_by_id_user_account_id_fk" FOREIGN KEY ("purchased_by_id") REFERENCES "public"."user_account"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase" ADD CONSTRAINT "purchase_purchase_order_id_purchase_order_id_fk" FOREIGN KEY ("purchase_order_id") REFERENCES "public"."purchase_order"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase" ADD CONSTRAINT "purchase_payment_type_id_payment_id_fk" FOREIGN KEY ("payment_type_id") REFERENCES "public"."payment"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_item" ADD CONSTRAINT "purchase_item_purchase_id_purchase_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchase"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_item" ADD CONSTRAINT "purchase_item_item_id_product_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."product"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_item_variant" ADD CONSTRAINT "purchase_item_variant_purchase_item_id_purchase_item_id_fk" FOREIGN KEY ("purchase_item_id") REFERENCES "public"."purchase_item"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_item_variant" ADD CONSTRAINT "purchase_item_variant_variant_id_product_variant_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variant"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_order" ADD CONSTRAINT "purchase_order_supplier_id_supplier_id_fk" FOREIGN KEY ("supplier_id") REFERENCES "public"."supplier"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_order" ADD CONSTRAINT "purchase_order_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_order_item" ADD CONSTRAINT "purchase_order_item_purchase_order_id_purchase_order_id_fk" FOREIGN KEY ("purchase_order_id") REFERENCES "public"."purchase_order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_order_item" ADD CONSTRAINT "purchase_order_item_item_id_product_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."product"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_order_item_variant" ADD CONSTRAINT "purchase_order_item_variant_purchase_order_item_id_purchase_order_item_id_fk" FOREIGN KEY ("purchase_order_item_id") REFERENCES "public"."purchase_order_item"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_order_item_variant" ADD CONSTRAINT "purchase_order_item_variant_variant_id_product_variant_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variant"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supplier_payment" ADD CONSTRAINT "supplier_payment_purchase_id_purchase_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchase"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supplier_payment" ADD CONSTRAINT "supplier_payment_supplier_id_supplier_id_fk" FOREIGN KEY ("supplier_id") REFERENCES "public"."supplier"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "closing" ADD CONSTRAINT "closing_opened_by_id_user_account_id_fk" FOREIGN KEY ("opened_by_id") REFERENCES "public"."user_account"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "closing" ADD CONSTRAINT "closing_closed_by_id_user_account_id_fk" FOREIGN KEY ("closed_by_id") REFERENCES "public"."user_account"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "closing" ADD CONSTRAINT "closing_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "closing" ADD CONSTRAINT "closing_terminal_id_terminal_id_fk" FOREIGN KEY ("terminal_id") REFERENCES "public"."terminal"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expense" ADD CONSTRAINT "expense_user_id_user_account_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user_account"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expense" ADD CONSTRAINT "expense_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "password_reset_hash_uq" ON "password_reset" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "refresh_token_hash_uq" ON "refresh_token" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "user_account_username_uq" ON "user_account" USING btree ("username");--> statement-breakpoint
CREATE INDEX "user_store_store_idx" ON "user_store" USING btree ("store_id");--> statement-breakpoint
CREATE INDEX "terminal_store_idx" ON "terminal" USING btree ("store_id");--> statement-breakpoint
CREATE UNIQUE INDEX "barcode_barcode_uq" ON "barcode" USING btree ("barcode");--> statement-breakpoint
CREATE INDEX "barcode_item_idx" ON "barcode" USING btree ("item_id");--> statement-breakpoint
CREATE INDEX "brand_store_store_idx" ON "brand_store" USING btree ("store_id");--> statement-breakpoint
CREATE INDEX "category_store_store_idx" ON "category_store" USING btree ("store_id");--> statement-breakpoint
CREATE INDEX "department_store_idx" ON "department" USING btree ("store_id");--> statement-breakpoint
CREATE INDEX "discount_store_store_idx" ON "discount_store" USING btree ("store_id");--> statement-breakpoint
CREATE INDEX "payment_store_store_idx" ON "payment_store" USING btree ("store_id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_barcode_uq" ON "product" USING btree ("barcode");--> statement-breakpoint
CREATE INDEX "product_name_idx" ON "product" USING btree ("name");--> statement-breakpoint
CREATE INDEX "product_updated_idx" ON "product" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "product_department_idx" ON "product" USING btree ("department_id");--> statement-breakpoint
CREATE INDEX "product_brand_other_idx" ON "product_brand" USING btree ("brand_id");--> statement-breakpoint
CREATE INDEX "product_category_other_idx" ON "product_category" USING btree ("category_id");--> statement-breakpoint
CREATE INDEX "product_price_product_idx" ON "product_price" USING btree ("product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_store_uq" ON "product_store" USING btree ("product_id","store_id");--> statement-breakpoint
CREATE INDEX "product_store_store_idx" ON "product_store" USING btree ("store_id");--> statement-breakpoint
CREATE INDEX "product_supplier_other_idx" ON "product_supplier" USING btree ("supplier_id");--> statement-breakpoint
CREATE INDEX "product_tax_other_idx" ON "product_tax" USING btree ("tax_id");--> statement-breakpoint
CREATE INDEX "product_terminal_other_idx" ON "product_terminal" USING btree ("terminal_id");--> statement-breakpoint
CREATE INDEX "product_variant_product_idx" ON "product_variant" USING btree ("product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_variant_barcode_uq" ON "product_variant" USING btree ("barcode");--> statement-breakpoint
CREATE INDEX "stock_movement_product_idx" ON "stock_movement" USING btree ("product_id","store_id");--> statement-breakpoint
CREATE INDEX "stock_movement_order_idx" ON "stock_movement" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "stock_movement_purchase_idx" ON "stock_movement" USING btree ("purchase_id");--> statement-breakpoint
CREATE INDEX "supplier_store_store_idx" ON "supplier_store" USING btree ("store_id");--> statement-breakpoint
CREATE INDEX "tax_store_store_idx" ON "tax_store" USING btree ("store_id");--> statement-breakpoint
CREATE INDEX "customer_name_idx" ON "customer" USING btree ("name");--> statement-breakpoint
CREATE INDEX "customer_payment_customer_idx" ON "customer_payment" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "order_store_number_uq" ON "order" USING btree ("store_id","order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "order_returned_from_uq" ON "order" USING btree ("returned_from_id");--> statement-breakpoint
CREATE UNIQUE INDEX "order_client_id_uq" ON "order" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "order_created_idx" ON "order" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "order_store_created_idx" ON "order" USING btree ("store_id","created_at");--> statement-breakpoint
CREATE INDEX "order_status_idx" ON "order" USING btree ("store_id","status");--> statement-breakpoint
CREATE INDEX "order_customer_idx" ON "order" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "order_discount_order_uq" ON "order_discount" USING btree ("orderId");--> statement-breakpoint
CREATE INDEX "order_payment_order_idx" ON "order_payment" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_product_order_idx" ON "order_product" USING btree ("orderId");--> statement-breakpoint
CREATE INDEX "order_product_product_idx" ON "order_product" USING btree ("product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "order_tax_order_uq" ON "order_tax" USING btree ("orderId");--> statement-breakpoint
CREATE UNIQUE INDEX "purchase_number_uq" ON "purchase" USING btree ("store_id","purchase_number");--> statement-breakpoint
CREATE UNIQUE INDEX "purchase_po_uq" ON "purchase" USING btree ("purchase_order_id");--> statement-breakpoint
CREATE INDEX "purchase_supplier_idx" ON "purchase" USING btree ("supplier_id");--> statement-breakpoint
CREATE INDEX "purchase_item_purchase_idx" ON "purchase_item" USING btree ("purchase_id");--> statement-breakpoint
CREATE INDEX "purchase_item_item_idx" ON "purchase_item" USING btree ("item_id");--> statement-breakpoint
CREATE INDEX "purchase_item_variant_item_idx" ON "purchase_item_variant" USING btree ("purchase_item_id");--> statement-breakpoint
CREATE UNIQUE INDEX "purchase_order_number_uq" ON "purchase_order" USING btree ("store_id","po_number");--> statement-breakpoint
CREATE INDEX "purchase_order_supplier_idx" ON "purchase_order" USING btree ("supplier_id");--> statement-breakpoint
CREATE INDEX "purchase_order_item_po_idx" ON "purchase_order_item" USING btree ("purchase_order_id");--> statement-breakpoint
CREATE INDEX "purchase_order_item_variant_item_idx" ON "purchase_order_item_variant" USING btree ("purchase_order_item_id");--> statement-breakpoint
CREATE INDEX "supplier_payment_supplier_idx" ON "supplier_payment" USING btree ("supplier_id");--> statement-breakpoint
CREATE INDEX "closing_store_terminal_idx" ON "closing" USING btree ("store_id","terminal_id","closed_at");--> statement-breakpoint
CREATE INDEX "expense_store_created_idx" ON "expense" USING btree ("store_id","created_at");