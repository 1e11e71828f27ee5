CREATE TABLE "customer_credit" (
	"customer_id" integer PRIMARY KEY NOT NULL,
	"debit" numeric DEFAULT '0' NOT NULL,
	"back" numeric DEFAULT '0' NOT NULL,
	"paid" numeric DEFAULT '0' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customer_credit_day" (
	"customer_id" integer NOT NULL,
	"day" date NOT NULL,
	"debit" numeric DEFAULT '0' NOT NULL,
	"back" numeric DEFAULT '0' NOT NULL,
	CONSTRAINT "customer_credit_day_customer_id_day_pk" PRIMARY KEY("customer_id","day")
);
--> statement-breakpoint
ALTER TABLE "customer_credit" ADD CONSTRAINT "customer_credit_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_credit_day" ADD CONSTRAINT "customer_credit_day_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customer_credit_day_day_idx" ON "customer_credit_day" USING btree ("day");--> statement-breakpoint
-- Hand-written: what keeps customer_credit and customer_credit_day equal to the rows they sum
-- (the customer balances with ageing, modules/reports/balances-report.ts). A credit-type payment
-- of a settled order with a customer counts on the order's local day in its store's zone: a
-- positive one as a debit, a negative one (a return) as `back`. Every write that can change that
-- set applies the difference in its own transaction: payments (per statement, through their
-- transition tables: a sale without a credit payment adds nothing), an order's customer, status,
-- store or date (per row, only when one of them changes: a new sale never calls it), an order
-- deleted (before its payments cascade away), customer payments (`paid`). A change of what a payment
-- type is, a deleted payment type or a store's new time zone recomputes everything (settings: rare).
CREATE FUNCTION customer_credit_settled(p_status text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT p_status IN ('Completed', 'Dispatched', 'Partially Returned', 'Returned')
$$;--> statement-breakpoint
-- Locks the customers' rows, in id order, before their credit rows: every writer takes a customer,
-- then its total, then its days. A credit sale locks its customer first (the credit limit's check);
-- without this a return holding the customer's total and waiting on the customer row (the foreign
-- key of its new order) deadlocked with a sale holding the customer row and waiting on the total.
CREATE FUNCTION customer_credit_lock(p_customer integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM customer WHERE id = ANY(p_customer) ORDER BY id FOR NO KEY UPDATE;
END $$;--> statement-breakpoint
-- Adds k x the payments (customer, local day, total): positive ones to debit, negative ones to back.
CREATE FUNCTION customer_credit_apply(p_customer integer[], p_day date[], p_total numeric[], k integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_customer IS NULL OR cardinality(p_customer) = 0 THEN RETURN; END IF;
  PERFORM customer_credit_lock(p_customer);
  INSERT INTO customer_credit AS x (customer_id, debit, back)
    SELECT c.id, k * coalesce(sum(c.total) FILTER (WHERE c.total > 0), 0), k * coalesce(-sum(c.total) FILTER (WHERE c.total < 0), 0)
    FROM unnest(p_customer, p_total) AS c(id, total) JOIN customer cu ON cu.id = c.id
    GROUP BY c.id ORDER BY c.id
  ON CONFLICT (customer_id) DO UPDATE SET debit = x.debit + excluded.debit, back = x.back + excluded.back;
  INSERT INTO customer_credit_day AS x (customer_id, day, debit, back)
    SELECT c.id, c.day, k * coalesce(sum(c.total) FILTER (WHERE c.total > 0), 0), k * coalesce(-sum(c.total) FILTER (WHERE c.total < 0), 0)
    FROM unnest(p_customer, p_day, p_total) AS c(id, day, total) JOIN customer cu ON cu.id = c.id
    GROUP BY c.id, c.day ORDER BY c.id, c.day
  ON CONFLICT (customer_id, day) DO UPDATE SET debit = x.debit + excluded.debit, back = x.back + excluded.back;
END $$;--> statement-breakpoint
-- Adds k x the credit payments among (order, type, total) as their orders are now.
CREATE FUNCTION customer_credit_payments_add(p_order integer[], p_type integer[], p_total numeric[], k integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_order IS NULL THEN RETURN; END IF;
  PERFORM customer_credit_apply(array_agg(o.customer_id), array_agg((o.created_at AT TIME ZONE s.time_zone)::date), array_agg(r.total), k)
  FROM unnest(p_order, p_type, p_total) AS r(order_id, type_id, total)
    JOIN payment t ON t.id = r.type_id AND t.type = 'credit'
    JOIN "order" o ON o.id = r.order_id AND o.customer_id IS NOT NULL AND customer_credit_settled(o.status)
    JOIN store s ON s.id = o.store_id;
END $$;--> statement-breakpoint
-- PL/pgSQL plans a statement when it first runs it: an insert never touches old_rows, a delete never new_rows.
CREATE FUNCTION customer_credit_payments_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM customer_credit_payments_add(array_agg(r.order_id), array_agg(r.type_id), array_agg(r.total), -1) FROM old_rows r;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    PERFORM customer_credit_payments_add(array_agg(r.order_id), array_agg(r.type_id), array_agg(r.total), 1) FROM new_rows r;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER customer_credit_payments_ins AFTER INSERT ON order_payment REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION customer_credit_payments_changed();--> statement-breakpoint
CREATE TRIGGER customer_credit_payments_del AFTER DELETE ON order_payment REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION customer_credit_payments_changed();--> statement-breakpoint
CREATE TRIGGER customer_credit_payments_upd AFTER UPDATE ON order_payment REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION customer_credit_payments_changed();--> statement-breakpoint
-- k x an order's credit payments as the order was (OLD) or is (NEW).
CREATE FUNCTION customer_credit_order(p_id integer, p_customer integer, p_status text, p_store integer, p_at timestamptz, k integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_customer IS NULL OR NOT customer_credit_settled(p_status) THEN RETURN; END IF;
  PERFORM customer_credit_apply(array_agg(p_customer), array_agg((p_at AT TIME ZONE s.time_zone)::date), array_agg(p.total), k)
  FROM order_payment p JOIN payment t ON t.id = p.type_id AND t.type = 'credit' JOIN store s ON s.id = p_store
  WHERE p.order_id = p_id;
END $$;--> statement-breakpoint
CREATE FUNCTION customer_credit_order_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM customer_credit_order(OLD.id, OLD.customer_id, OLD.status, OLD.store_id, OLD.created_at, -1);
  IF TG_OP = 'UPDATE' THEN
    PERFORM customer_credit_order(NEW.id, NEW.customer_id, NEW.status, NEW.store_id, NEW.created_at, 1);
    RETURN NEW;
  END IF;
  RETURN OLD;
END $$;--> statement-breakpoint
CREATE TRIGGER customer_credit_order_upd AFTER UPDATE ON "order" FOR EACH ROW
  WHEN (OLD.customer_id IS DISTINCT FROM NEW.customer_id OR OLD.status IS DISTINCT FROM NEW.status OR OLD.store_id <> NEW.store_id OR OLD.created_at <> NEW.created_at)
  EXECUTE FUNCTION customer_credit_order_changed();--> statement-breakpoint
CREATE TRIGGER customer_credit_order_del BEFORE DELETE ON "order" FOR EACH ROW
  WHEN (OLD.customer_id IS NOT NULL) EXECUTE FUNCTION customer_credit_order_changed();--> statement-breakpoint
CREATE FUNCTION customer_credit_paid(p_customer integer[], p_amount numeric[], k integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_customer IS NULL THEN RETURN; END IF;
  PERFORM customer_credit_lock(p_customer);
  INSERT INTO customer_credit AS x (customer_id, paid)
    SELECT c.id, k * sum(c.amount) FROM unnest(p_customer, p_amount) AS c(id, amount) JOIN customer cu ON cu.id = c.id GROUP BY c.id
  ON CONFLICT (customer_id) DO UPDATE SET paid = x.paid + excluded.paid;
END $$;--> statement-breakpoint
-- PL/pgSQL plans a statement when it first runs it: an insert never touches old_rows, a delete never new_rows.
CREATE FUNCTION customer_credit_paid_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM customer_credit_paid(array_agg(r.customer_id), array_agg(r.amount), -1) FROM old_rows r;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    PERFORM customer_credit_paid(array_agg(r.customer_id), array_agg(r.amount), 1) FROM new_rows r;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER customer_credit_paid_ins AFTER INSERT ON customer_payment REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION customer_credit_paid_changed();--> statement-breakpoint
CREATE TRIGGER customer_credit_paid_del AFTER DELETE ON customer_payment REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION customer_credit_paid_changed();--> statement-breakpoint
CREATE TRIGGER customer_credit_paid_upd AFTER UPDATE ON customer_payment REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION customer_credit_paid_changed();--> statement-breakpoint
-- Everything again from the rows, under a lock that holds the writers' differences until it commits.
CREATE FUNCTION customer_credit_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE customer_credit, customer_credit_day IN EXCLUSIVE MODE;
  DELETE FROM customer_credit_day;
  DELETE FROM customer_credit;
  INSERT INTO customer_credit_day (customer_id, day, debit, back)
    SELECT o.customer_id, (o.created_at AT TIME ZONE s.time_zone)::date,
      coalesce(sum(p.total) FILTER (WHERE p.total > 0), 0), coalesce(-sum(p.total) FILTER (WHERE p.total < 0), 0)
    FROM order_payment p JOIN payment t ON t.id = p.type_id AND t.type = 'credit'
      JOIN "order" o ON o.id = p.order_id AND o.customer_id IS NOT NULL AND customer_credit_settled(o.status)
      JOIN store s ON s.id = o.store_id
    GROUP BY 1, 2;
  INSERT INTO customer_credit (customer_id, debit, back, paid)
    SELECT coalesce(d.customer_id, c.customer_id), coalesce(d.debit, 0), coalesce(d.back, 0), coalesce(c.paid, 0)
    FROM (SELECT customer_id, sum(debit) AS debit, sum(back) AS back FROM customer_credit_day GROUP BY 1) d
      FULL JOIN (SELECT customer_id, sum(amount) AS paid FROM customer_payment GROUP BY 1) c ON c.customer_id = d.customer_id;
END $$;--> statement-breakpoint
CREATE FUNCTION customer_credit_rebuilt() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM customer_credit_rebuild();
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER customer_credit_payment_type AFTER UPDATE ON payment FOR EACH ROW
  WHEN (OLD.type IS DISTINCT FROM NEW.type) EXECUTE FUNCTION customer_credit_rebuilt();--> statement-breakpoint
CREATE TRIGGER customer_credit_payment_type_del AFTER DELETE ON payment FOR EACH ROW EXECUTE FUNCTION customer_credit_rebuilt();--> statement-breakpoint
CREATE TRIGGER customer_credit_store_zone AFTER UPDATE ON store FOR EACH ROW
  WHEN (OLD.time_zone IS DISTINCT FROM NEW.time_zone) EXECUTE FUNCTION customer_credit_rebuilt();--> statement-breakpoint
SELECT customer_credit_rebuild();
