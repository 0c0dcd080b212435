CREATE TABLE "support_batch_cards" (
	"batch_id" text NOT NULL,
	"position" integer NOT NULL,
	"line" integer NOT NULL,
	"last4" text NOT NULL,
	"card_hmac" text NOT NULL,
	"card_sealed" text,
	"state" text NOT NULL,
	"attempts" integer NOT NULL,
	"claimed_at" timestamp (3) with time zone,
	"not_before" timestamp (3) with time zone,
	"outcome" text,
	"balances" jsonb,
	"upstream_status" smallint,
	"error" text,
	"finished_at" timestamp (3) with time zone,
	CONSTRAINT "support_batch_cards_batch_id_position_pk" PRIMARY KEY("batch_id","position")
);
--> statement-breakpoint
CREATE TABLE "support_batches" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"roles" text[] NOT NULL,
	"client_address" text,
	"environment" text NOT NULL,
	"credentials" text,
	"reason" text,
	"status" text NOT NULL,
	"total" integer NOT NULL,
	"bad_lines" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"started_at" timestamp (3) with time zone,
	"finished_at" timestamp (3) with time zone,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"runner_lease_until" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "support_batch_cards" ADD CONSTRAINT "support_batch_cards_batch_id_support_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."support_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "support_batch_cards_state" ON "support_batch_cards" USING btree ("batch_id","state","position");--> statement-breakpoint
CREATE INDEX "support_batches_user" ON "support_batches" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "support_batches_expires" ON "support_batches" USING btree ("expires_at");