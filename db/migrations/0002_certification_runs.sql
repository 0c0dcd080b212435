CREATE TABLE "certification_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"environment" text NOT NULL,
	"status" text NOT NULL,
	"operator_id" text NOT NULL,
	"operator_name" text NOT NULL,
	"client_id" text NOT NULL,
	"allow_production_gift" boolean NOT NULL,
	"case_ids" text[] NOT NULL,
	"total" integer NOT NULL,
	"done" integer NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"finished_at" timestamp (3) with time zone,
	"heartbeat_at" timestamp (3) with time zone NOT NULL,
	"state" jsonb NOT NULL,
	"verdicts" jsonb NOT NULL,
	"results" jsonb NOT NULL,
	"exchanges" jsonb NOT NULL,
	"bundle" "bytea",
	"bundle_file_name" text
);
--> statement-breakpoint
CREATE INDEX "certification_runs_started" ON "certification_runs" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "certification_runs_status" ON "certification_runs" USING btree ("status");