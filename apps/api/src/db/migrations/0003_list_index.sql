CREATE TABLE "list_index" (
	"key" text PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL,
	"total" integer NOT NULL,
	"marks" integer[] NOT NULL,
	"mark_texts" text[],
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "list_version" (
	"id" integer PRIMARY KEY NOT NULL,
	"v" bigint NOT NULL
);
--> statement-breakpoint
INSERT INTO "list_version" ("id", "v") VALUES (1, 1);
--> statement-breakpoint
-- Bumped (inside the writer's transaction, so readers see the new number exactly when they see the
-- change) when a product list's membership or order can change (a rename moves a product in the
-- list sorted by name). Statement-level: a bulk load is one bump.
CREATE FUNCTION "list_version_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NOT EXISTS (SELECT 1 FROM changed_new) THEN RETURN NULL; END IF;
  ELSIF TG_OP = 'DELETE' THEN
    IF NOT EXISTS (SELECT 1 FROM changed_old) THEN RETURN NULL; END IF;
  ELSIF TG_TABLE_NAME = 'product' THEN
    IF NOT EXISTS (SELECT 1 FROM changed_old o JOIN changed_new n ON n."id" = o."id"
        WHERE (o."is_active", o."is_available", o."manage_inventory", o."store_ids", o."name")
          IS DISTINCT FROM (n."is_active", n."is_available", n."manage_inventory", n."store_ids", n."name")) THEN
      RETURN NULL;
    END IF;
  END IF;
  UPDATE "list_version" SET "v" = "v" + 1 WHERE "id" = 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "list_version_product_ins" AFTER INSERT ON "product" REFERENCING NEW TABLE AS changed_new
  FOR EACH STATEMENT EXECUTE FUNCTION "list_version_bump"();
--> statement-breakpoint
CREATE TRIGGER "list_version_product_del" AFTER DELETE ON "product" REFERENCING OLD TABLE AS changed_old
  FOR EACH STATEMENT EXECUTE FUNCTION "list_version_bump"();
--> statement-breakpoint
CREATE TRIGGER "list_version_product_upd" AFTER UPDATE ON "product" REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new
  FOR EACH STATEMENT EXECUTE FUNCTION "list_version_bump"();
--> statement-breakpoint
CREATE TRIGGER "list_version_store_ins" AFTER INSERT ON "store" REFERENCING NEW TABLE AS changed_new
  FOR EACH STATEMENT EXECUTE FUNCTION "list_version_bump"();
--> statement-breakpoint
CREATE TRIGGER "list_version_store_del" AFTER DELETE ON "store" REFERENCING OLD TABLE AS changed_old
  FOR EACH STATEMENT EXECUTE FUNCTION "list_version_bump"();
