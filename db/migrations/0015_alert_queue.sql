ALTER TABLE "monitors" ADD COLUMN "alert_after_failures" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "monitors" ADD COLUMN "failing_runs" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_deliveries" RENAME COLUMN "event" TO "type";--> statement-breakpoint
UPDATE "alert_deliveries" SET "type" = 'monitor.failing' WHERE "type" = 'monitor_failing';--> statement-breakpoint
UPDATE "alert_deliveries" SET "type" = 'monitor.recovered' WHERE "type" = 'monitor_recovered';--> statement-breakpoint
ALTER TABLE "alert_deliveries" ALTER COLUMN "monitor_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ALTER COLUMN "run_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD COLUMN "attempt_log" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD COLUMN "retry_from" timestamp (3) with time zone;--> statement-breakpoint
UPDATE "alert_deliveries" SET "retry_from" = "created_at";--> statement-breakpoint
ALTER TABLE "alert_deliveries" ALTER COLUMN "retry_from" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD COLUMN "claim" text;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_deliveries_change" ON "alert_deliveries" USING btree ("monitor_id","run_id","type");
