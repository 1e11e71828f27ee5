-- Hand-written: the report roll-ups (modules/reports/rollups.ts) gain two grains, sales by
-- category and by brand (kinds 8 and 9). The days rolled before lack their rows, so every mark is
-- dropped with the rows: reports read those days live until the background pass (or the first
-- report that asks) rolls them again, with all ten grains.
DELETE FROM "report_day_sales";
--> statement-breakpoint
DELETE FROM "report_day_done";
