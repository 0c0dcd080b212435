CREATE TABLE "alert_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"monitor_id" text NOT NULL,
	"run_id" text NOT NULL,
	"event" text NOT NULL,
	"body" text NOT NULL,
	"state" text NOT NULL,
	"attempts" integer NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"next_attempt_at" timestamp (3) with time zone,
	"claimed_until" timestamp (3) with time zone,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "monitor_runs" (
	"run_id" text PRIMARY KEY NOT NULL,
	"monitor_id" text NOT NULL,
	"scheduled" boolean NOT NULL,
	"late" boolean NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"finished_at" timestamp (3) with time zone,
	"status" text NOT NULL,
	"passed" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"failed_cases" text[] DEFAULT '{}'::text[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "monitors" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"environment" text NOT NULL,
	"case_ids" text[],
	"every_minutes" integer NOT NULL,
	"allow_production_gift" boolean NOT NULL,
	"paused" boolean NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"next_run_at" timestamp (3) with time zone NOT NULL,
	"scheduled_for" timestamp (3) with time zone,
	"busy_until" timestamp (3) with time zone,
	"state" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_runs" ADD CONSTRAINT "monitor_runs_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_deliveries_due" ON "alert_deliveries" USING btree ("state","next_attempt_at");--> statement-breakpoint
CREATE INDEX "alert_deliveries_monitor" ON "alert_deliveries" USING btree ("monitor_id","created_at");--> statement-breakpoint
CREATE INDEX "monitor_runs_monitor" ON "monitor_runs" USING btree ("monitor_id","started_at");--> statement-breakpoint
CREATE INDEX "monitors_next_run" ON "monitors" USING btree ("next_run_at");--> statement-breakpoint
CREATE INDEX "monitors_created_by" ON "monitors" USING btree ("created_by");