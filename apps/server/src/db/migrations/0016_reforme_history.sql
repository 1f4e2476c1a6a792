-- Field-level history of a reform (issue 32): every change to a reform, its objectives, expected results, follow-up
-- records and attachments, written by triggers in the transaction of the change itself (never a change without its
-- line, never a line without its change). The author is the transaction's `reformes.actor_id` (history.service.ts
-- `actAs`). Values are stored once per distinct text in history_values, so a long text is not copied on every line.
CREATE TABLE "history_values" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"hash" text NOT NULL UNIQUE,
	"content" text NOT NULL
);--> statement-breakpoint
CREATE TABLE "reforme_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"reforme_id" integer NOT NULL,
	"kind" text NOT NULL,
	"action" text NOT NULL,
	"entity_id" integer NOT NULL,
	"field" text,
	"before_id" bigint REFERENCES "history_values"("id"),
	"after_id" bigint REFERENCES "history_values"("id"),
	"actor_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "reforme_history_reforme_idx" ON "reforme_history" USING btree ("reforme_id","id");--> statement-breakpoint
CREATE INDEX "reforme_history_kind_idx" ON "reforme_history" USING btree ("reforme_id","kind","id");--> statement-breakpoint
CREATE FUNCTION "history_value"("content" text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  digest text := encode(sha256(convert_to("content", 'UTF8')), 'hex');
  stored bigint;
BEGIN
  IF "content" IS NULL THEN RETURN NULL; END IF;
  INSERT INTO "history_values" ("hash", "content") VALUES (digest, "content") ON CONFLICT ("hash") DO NOTHING RETURNING "id" INTO stored;
  IF stored IS NULL THEN SELECT "id" INTO stored FROM "history_values" WHERE "hash" = digest; END IF;
  RETURN stored;
END $$;--> statement-breakpoint
-- Arguments: the kind of row, its tracked columns (comma-separated: other columns, kept by the database or the
-- workflow, never make a line), the column that names the row on its creation and deletion.
CREATE FUNCTION "record_reforme_history"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  kind text := TG_ARGV[0];
  old_row jsonb := CASE WHEN TG_OP <> 'INSERT' THEN to_jsonb(OLD) END;
  new_row jsonb := CASE WHEN TG_OP <> 'DELETE' THEN to_jsonb(NEW) END;
  current_row jsonb := coalesce(new_row, old_row);
  actor integer := nullif(current_setting('reformes.actor_id', true), '')::integer;
  change text := lower(TG_OP);
  reforme integer;
  field text;
BEGIN
  reforme := CASE kind
    WHEN 'reforme' THEN (current_row->>'id')::integer
    WHEN 'resultat' THEN (SELECT "reforme_id" FROM "objectifs" WHERE "id" = (current_row->>'objectif_id')::integer)
    WHEN 'suivi' THEN (SELECT o."reforme_id" FROM "resultats" r JOIN "objectifs" o ON o."id" = r."objectif_id"
                       WHERE r."id" = (current_row->>'result_id')::integer)
    ELSE (current_row->>'reforme_id')::integer
  END;
  -- A pending upload has no reform yet; a result or a record deleted with its reform has none left.
  IF reforme IS NULL THEN RETURN NULL; END IF;
  -- An upload claimed by its reform is, for the reform, an attachment created.
  IF kind = 'fichier' AND change = 'update' AND old_row->>'reforme_id' IS NULL THEN change := 'insert'; END IF;
  IF change = 'update' THEN
    FOREACH field IN ARRAY string_to_array(TG_ARGV[1], ',') LOOP
      CONTINUE WHEN old_row->field IS NOT DISTINCT FROM new_row->field;
      INSERT INTO "reforme_history" ("reforme_id", "kind", "action", "entity_id", "field", "before_id", "after_id", "actor_id")
      VALUES (reforme, kind, 'update', (current_row->>'id')::integer, field, history_value(old_row->>field),
              history_value(new_row->>field), actor);
    END LOOP;
  ELSE
    INSERT INTO "reforme_history" ("reforme_id", "kind", "action", "entity_id", "before_id", "after_id", "actor_id")
    VALUES (reforme, kind, CASE change WHEN 'insert' THEN 'create' ELSE 'delete' END, (current_row->>'id')::integer,
            CASE WHEN change = 'delete' THEN history_value(old_row->>TG_ARGV[2]) END,
            CASE WHEN change = 'insert' THEN history_value(new_row->>TG_ARGV[2]) END, actor);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "reformes_history" AFTER INSERT OR UPDATE OR DELETE ON "reformes" FOR EACH ROW EXECUTE FUNCTION
  "record_reforme_history"('reforme', 'libref,typeref,nature_id,objectif_glob,popul_cible,couverture_id,struct_impl,date_debut,date_fin,periodexe,cadreinst_mor,etat_mor,montant_prevu,montant_trealise,difficult,solution,perspective,is_active,structure_id', 'libref');--> statement-breakpoint
CREATE TRIGGER "objectifs_history" AFTER INSERT OR UPDATE OR DELETE ON "objectifs" FOR EACH ROW EXECUTE FUNCTION
  "record_reforme_history"('objectif', 'libobjectif,reforme_id,is_active', 'libobjectif');--> statement-breakpoint
CREATE TRIGGER "resultats_history" AFTER INSERT OR UPDATE OR DELETE ON "resultats" FOR EACH ROW EXECUTE FUNCTION
  "record_reforme_history"('resultat', 'libresult,indicateur,valeur_cible,valeurref,objectif_id,status,is_active', 'libresult');--> statement-breakpoint
CREATE TRIGGER "suivi_results_history" AFTER INSERT OR UPDATE OR DELETE ON "suivi_results" FOR EACH ROW EXECUTE FUNCTION
  "record_reforme_history"('suivi', 'taux_realisat,valeur_realise,date', 'date');--> statement-breakpoint
CREATE TRIGGER "reforme_files_history" AFTER INSERT OR UPDATE OR DELETE ON "reforme_files" FOR EACH ROW EXECUTE FUNCTION
  "record_reforme_history"('fichier', 'name_file', 'name_file');
