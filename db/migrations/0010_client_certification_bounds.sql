ALTER TABLE "client_certification_calls" ADD COLUMN "seq" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "client_certifications" ADD COLUMN "secret_sealed" text;--> statement-breakpoint
ALTER TABLE "client_certifications" ADD COLUMN "calls_kept" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "client_certifications" ADD COLUMN "calls_dropped" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "client_certifications" ADD COLUMN "refused_token_requests" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "client_certifications" ADD COLUMN "last_refused_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "client_certification_calls_seq" ON "client_certification_calls" USING btree ("certification_id","seq");--> statement-breakpoint
CREATE INDEX "client_certifications_operator" ON "client_certifications" USING btree ("operator_id","started_at");