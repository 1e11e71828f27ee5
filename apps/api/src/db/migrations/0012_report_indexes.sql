CREATE INDEX "order_payment_type_idx" ON "order_payment" USING btree ("type_id");--> statement-breakpoint
-- Hand-written (issue 25.6; not in the Drizzle schema: INCLUDE and WHERE). The customer ageing
-- reads the customers' orders from this index alone (no order heap pages).
CREATE INDEX "order_customer_ledger_idx" ON "order" USING btree ("customer_id") INCLUDE ("id", "status", "created_at", "store_id") WHERE "customer_id" IS NOT NULL;
