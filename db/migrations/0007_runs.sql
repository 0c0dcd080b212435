CREATE TABLE "inquiry_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"user_name" text NOT NULL,
	"environment" text NOT NULL,
	"operation" text NOT NULL,
	"request_id" text,
	"card" text,
	"status" smallint NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"recorded_at" timestamp (3) with time zone NOT NULL,
	"exchange" jsonb NOT NULL
);
--> statement-breakpoint
CREATE INDEX "inquiry_runs_recorded_at" ON "inquiry_runs" USING btree ("recorded_at");
--> statement-breakpoint
CREATE INDEX "inquiry_runs_request_id" ON "inquiry_runs" USING btree ("request_id");
--> statement-breakpoint
CREATE INDEX "inquiry_runs_user_id" ON "inquiry_runs" USING btree ("user_id");
