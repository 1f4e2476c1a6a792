-- The audit journal is append-only (issue 29): UPDATE, DELETE and TRUNCATE are refused, whoever asks. The one
-- exception is the retention purge (modules/audit/audit-retention.ts): in its own transaction it sets
-- `reformes.audit_purge_before` (set_config(..., true): transaction-local) to its cutoff, and may then delete only
-- the rows written before that cutoff, which must itself be at least a day old (AUDIT_RETENTION_DAYS >= 1).
-- A restore replaces the table with these triggers switched off by name (db/copy-database.ts), as the owner may.
CREATE FUNCTION "audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  cutoff timestamptz := nullif(current_setting('reformes.audit_purge_before', true), '')::timestamptz;
BEGIN
  IF TG_OP = 'DELETE' AND TG_LEVEL = 'ROW' AND cutoff IS NOT NULL AND cutoff <= now() - interval '1 day'
    AND OLD.created_at < cutoff THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'Le journal d''audit ne peut être ni modifié ni effacé.' USING ERRCODE = 'insufficient_privilege';
END $$;--> statement-breakpoint
CREATE TRIGGER "audit_log_append_only" BEFORE UPDATE OR DELETE ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION "audit_log_append_only"();--> statement-breakpoint
CREATE TRIGGER "audit_log_no_truncate" BEFORE TRUNCATE ON "audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_log_append_only"();
