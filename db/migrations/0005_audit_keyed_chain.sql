CREATE TABLE "audit_checkpoints" (
	"instance" text NOT NULL,
	"seq" bigint NOT NULL,
	"row_hash" text NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	"jws" jsonb NOT NULL,
	CONSTRAINT "audit_checkpoints_instance_seq_pk" PRIMARY KEY("instance","seq")
);
--> statement-breakpoint
ALTER TABLE "audit_chain_head" ADD COLUMN "keyed_from" bigint DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX "audit_checkpoints_seq" ON "audit_checkpoints" USING btree ("seq");--> statement-breakpoint
-- Rows written so far keep the plain SHA-256 chain they were written with; every row after them is keyed (HMAC).
UPDATE "audit_chain_head" SET "keyed_from" = "last_seq" + 1;
--> statement-breakpoint
-- Checkpoints are append-only for the application, like the rows they vouch for.
CREATE TRIGGER "audit_checkpoints_append_only" BEFORE UPDATE OR DELETE ON "audit_checkpoints"
  FOR EACH ROW EXECUTE FUNCTION "audit_log_refuse_change"();
