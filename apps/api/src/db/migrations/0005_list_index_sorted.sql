ALTER TABLE "list_index" ADD COLUMN "mark_texts" text[];--> statement-breakpoint
-- Lists sorted by name are indexed too: a rename moves a product in them.
CREATE OR REPLACE FUNCTION "list_version_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
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
