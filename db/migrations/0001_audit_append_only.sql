-- The chain starts from a genesis hash of 64 zeros; every append locks and advances this one row.
INSERT INTO "audit_chain_head" ("id", "last_seq", "last_hash") VALUES (1, 0, repeat('0', 64)) ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- Rows are append-only for the application: UPDATE and DELETE are refused. Someone with owner rights can still
-- disable this trigger; the hash chain (verify) is what detects such a change.
CREATE FUNCTION "audit_log_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "audit_log_append_only" BEFORE UPDATE OR DELETE ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION "audit_log_refuse_change"();
--> statement-breakpoint
CREATE TRIGGER "audit_log_no_truncate" BEFORE TRUNCATE ON "audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_log_refuse_change"();
