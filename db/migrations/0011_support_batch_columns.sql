ALTER TABLE "support_batch_cards" ADD COLUMN "extra" jsonb;--> statement-breakpoint
ALTER TABLE "support_batches" ADD COLUMN "columns" jsonb;