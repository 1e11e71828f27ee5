ALTER TABLE "product_store" ADD COLUMN "re_order_quantity" numeric(20, 3);--> statement-breakpoint
ALTER TABLE "product_store" ADD COLUMN "avg_cost" numeric(20, 3);--> statement-breakpoint
ALTER TABLE "stock_movement" ADD COLUMN "unit_cost" numeric(20, 3);--> statement-breakpoint
ALTER TABLE "stock_transfer_line" ADD COLUMN "unit_cost" numeric(20, 3);--> statement-breakpoint
-- ---------------------------------------------------------------------------------------------
-- Hand-written block (issue 25.5, stock valuation): re-append as it is after renumbering.
-- Every ledger row carries the unit cost in effect for its (product, store): the store's
-- weighted-average cost, else the product's catalogue cost (a variant row: the variant's purchase
-- price, else the product's cost). lib/stock.ts writes it with the row; this trigger fills it for
-- any other writer that leaves it empty (bulk loads, the demo seed), and costs nothing otherwise
-- (WHEN is checked before any function call). Rows written before this
-- migration take today's catalogue cost: the best figure there is for them.
CREATE FUNCTION stock_movement_unit_cost() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.unit_cost IS NULL THEN
    IF NEW.variant_id IS NULL THEN
      SELECT coalesce(ps.avg_cost, p.cost) INTO NEW.unit_cost
        FROM product p LEFT JOIN product_store ps ON ps.product_id = p.id AND ps.store_id = NEW.store_id
        WHERE p.id = NEW.product_id;
    ELSE
      SELECT coalesce(pv.purchase_price, p.cost) INTO NEW.unit_cost
        FROM product p LEFT JOIN product_variant pv ON pv.id = NEW.variant_id
        WHERE p.id = NEW.product_id;
    END IF;
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER stock_movement_unit_cost BEFORE INSERT ON "stock_movement" FOR EACH ROW WHEN (NEW.unit_cost IS NULL) EXECUTE FUNCTION stock_movement_unit_cost();--> statement-breakpoint
UPDATE "stock_movement" m SET unit_cost = p.cost FROM "product" p WHERE p.id = m.product_id;
