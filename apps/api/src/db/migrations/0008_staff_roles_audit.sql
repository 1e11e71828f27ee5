CREATE TABLE "approval" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_hash" varchar(128) NOT NULL,
	"permission" varchar(64) NOT NULL,
	"store_id" integer NOT NULL,
	"requested_by_id" integer NOT NULL,
	"approved_by_id" integer NOT NULL,
	"approved_by_name" varchar(255) NOT NULL,
	"up_to" integer,
	"note" text,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"action" varchar(64) NOT NULL,
	"actor_id" integer,
	"actor_name" varchar(255),
	"approver_id" integer,
	"approver_name" varchar(255),
	"store_id" integer,
	"entity" varchar(64),
	"entity_id" varchar(64),
	"before" jsonb,
	"after" jsonb,
	"details" jsonb,
	"address" varchar(64)
);
--> statement-breakpoint
CREATE TABLE "staff_role" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(100) NOT NULL,
	"builtin" varchar(16),
	"permissions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_account" ADD COLUMN "role_id" integer;--> statement-breakpoint
ALTER TABLE "user_account" ADD COLUMN "pin_hash" text;--> statement-breakpoint
ALTER TABLE "store" ADD COLUMN "max_discount_percent" integer DEFAULT 20 NOT NULL;--> statement-breakpoint
ALTER TABLE "customer" ADD COLUMN "erased_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "customer" ADD COLUMN "store_id" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "approval_token_uq" ON "approval" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "audit_log" USING btree ("action","at");--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_id","at");--> statement-breakpoint
CREATE INDEX "audit_log_store_idx" ON "audit_log" USING btree ("store_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "staff_role_name_uq" ON "staff_role" USING btree ("name");--> statement-breakpoint
CREATE UNIQUE INDEX "staff_role_builtin_uq" ON "staff_role" USING btree ("builtin");--> statement-breakpoint
ALTER TABLE "user_account" ADD CONSTRAINT "user_account_role_id_staff_role_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."staff_role"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer" ADD CONSTRAINT "customer_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Built-in roles (their permissions live in @pos/domain/permissions); existing users keep what they could do.
INSERT INTO "staff_role" ("id", "name", "builtin") VALUES (1, 'Owner', 'owner'), (2, 'Manager', 'manager'), (3, 'Cashier', 'cashier');--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('staff_role', 'id'), 100);--> statement-breakpoint
-- The audit log is append-only: no UPDATE, DELETE or TRUNCATE, whoever asks.
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;--> statement-breakpoint
CREATE TRIGGER audit_log_no_update BEFORE UPDATE OR DELETE ON "audit_log" FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();--> statement-breakpoint
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON "audit_log" FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
