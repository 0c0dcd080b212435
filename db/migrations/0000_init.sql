CREATE TABLE "audit_chain_head" (
	"id" smallint PRIMARY KEY NOT NULL,
	"last_seq" bigint NOT NULL,
	"last_hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"time" timestamp (3) with time zone NOT NULL,
	"user_id" text,
	"roles" text[] NOT NULL,
	"client_address" text,
	"event" text NOT NULL,
	"environment" text,
	"operation" text,
	"card_masked" text,
	"card_last4" text,
	"card_hmac" text,
	"upstream_status" smallint,
	"request_id" text,
	"outcome" text NOT NULL,
	"reason" text,
	"details" jsonb,
	"prev_hash" text NOT NULL,
	"row_hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp (3) with time zone NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"roles" text[] NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"last_seen_at" timestamp (3) with time zone NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"ended_at" timestamp (3) with time zone,
	"end_reason" text
);
--> statement-breakpoint
CREATE INDEX "audit_log_user_seq" ON "audit_log" USING btree ("user_id","seq");--> statement-breakpoint
CREATE INDEX "audit_log_event_seq" ON "audit_log" USING btree ("event","seq");--> statement-breakpoint
CREATE INDEX "audit_log_card_hmac_seq" ON "audit_log" USING btree ("card_hmac","seq");--> statement-breakpoint
CREATE INDEX "audit_log_card_last4_seq" ON "audit_log" USING btree ("card_last4","seq");--> statement-breakpoint
CREATE INDEX "audit_log_time" ON "audit_log" USING btree ("time");--> statement-breakpoint
CREATE INDEX "sessions_user" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_expires" ON "sessions" USING btree ("expires_at");