CREATE TABLE "client_certifications" (
	"id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"secret_sha256" text NOT NULL,
	"status" text NOT NULL,
	"environment" text NOT NULL,
	"auth_url" text NOT NULL,
	"base_url" text NOT NULL,
	"operator_id" text NOT NULL,
	"operator" text NOT NULL,
	"current_step" text,
	"steps" jsonb NOT NULL,
	"revoked_before" timestamp (3) with time zone,
	"delay_armed" boolean NOT NULL,
	"rate_limit_armed" boolean NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"finished_at" timestamp (3) with time zone,
	"checks" jsonb,
	CONSTRAINT "client_certifications_client_id_unique" UNIQUE("client_id")
);
--> statement-breakpoint
CREATE TABLE "client_certification_calls" (
	"id" text PRIMARY KEY NOT NULL,
	"certification_id" text NOT NULL,
	"step" text,
	"started_at" timestamp (3) with time zone NOT NULL,
	"duration_ms" integer NOT NULL,
	"operation" text,
	"status" smallint NOT NULL,
	"request_id" text,
	"record" jsonb NOT NULL,
	"facts" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "client_certification_calls" ADD CONSTRAINT "client_certification_calls_certification_id_client_certifications_id_fk" FOREIGN KEY ("certification_id") REFERENCES "public"."client_certifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "client_certifications_started" ON "client_certifications" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "client_certification_calls_order" ON "client_certification_calls" USING btree ("certification_id","started_at");
