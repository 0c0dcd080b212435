CREATE TABLE "client_certification_plans" (
	"id" text PRIMARY KEY NOT NULL,
	"certification_id" text NOT NULL,
	"number" integer NOT NULL,
	"code" text NOT NULL,
	"faults" jsonb NOT NULL,
	"counts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"armed_at" timestamp (3) with time zone NOT NULL,
	"ended_at" timestamp (3) with time zone,
	"exit_code" integer,
	"result" jsonb
);
--> statement-breakpoint
ALTER TABLE "client_certification_calls" ADD COLUMN "plan_id" text;--> statement-breakpoint
ALTER TABLE "client_certifications" ADD COLUMN "mode" text DEFAULT 'steps' NOT NULL;--> statement-breakpoint
ALTER TABLE "client_certifications" ADD COLUMN "client_timeout_ms" integer DEFAULT 3000 NOT NULL;--> statement-breakpoint
ALTER TABLE "client_certifications" ADD COLUMN "current_plan_id" text;--> statement-breakpoint
ALTER TABLE "client_certification_plans" ADD CONSTRAINT "client_certification_plans_certification_id_client_certifications_id_fk" FOREIGN KEY ("certification_id") REFERENCES "public"."client_certifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "client_certification_plans_order" ON "client_certification_plans" USING btree ("certification_id","number");--> statement-breakpoint
CREATE INDEX "client_certification_calls_plan" ON "client_certification_calls" USING btree ("plan_id");