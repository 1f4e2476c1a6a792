-- Follow-up portfolio (issue 16). Per reform, a summary of its active results and its time-aware status, kept by
-- statement triggers, so the overview filters, sorts and counts 100 000 reforms on one narrow, indexed table.
-- The status depends on today's date: each row says until which day it holds (status_until), and the portfolio
-- service recomputes the rows whose day has passed before it reads (portfolio_refresh_due). "Today" is the UTC
-- calendar day on both sides (docs/decisions.md, "Portfolio status").
CREATE TABLE "reforme_progress" (
	"reforme_id" integer PRIMARY KEY NOT NULL REFERENCES "reformes"("id") ON DELETE CASCADE,
	-- Copies of the reform's columns the portfolio filters and sorts on.
	"is_active" boolean NOT NULL,
	"structure_id" integer NOT NULL,
	"nature_id" integer NOT NULL,
	"typeref" text NOT NULL,
	"etat_mor" text,
	"date_debut" date NOT NULL,
	"date_fin" date NOT NULL,
	"results_total" integer DEFAULT 0 NOT NULL,
	"results_validated" integer DEFAULT 0 NOT NULL,
	-- Sum of the active results' progress in [0, 1]: 1 when validated, else the latest rate / 100, capped.
	"progress_sum" double precision DEFAULT 0 NOT NULL,
	"last_suivi_date" date,
	"status" text NOT NULL,
	-- Position of the status in PORTFOLIO_STATUSES (most urgent first), for the order "by lateness".
	"status_rank" smallint NOT NULL,
	-- The last day the status holds without a change of data; null while it holds until the data change.
	"status_until" date
);
--> statement-breakpoint
CREATE INDEX "reforme_progress_order_idx" ON "reforme_progress" ("status_rank", "date_fin", "reforme_id") WHERE "is_active";--> statement-breakpoint
CREATE INDEX "reforme_progress_structure_idx" ON "reforme_progress" ("structure_id", "status_rank", "date_fin", "reforme_id") WHERE "is_active";--> statement-breakpoint
CREATE INDEX "reforme_progress_until_idx" ON "reforme_progress" ("status_until");--> statement-breakpoint
-- The rule of packages/domain/src/portfolio-status.ts (portfolioStatusOf), first match wins. Its test runs both on
-- thousands of generated cases.
CREATE FUNCTION "portfolio_status"(today date, debut date, fin date, total integer, validated integer, progress_sum double precision, last_suivi date)
RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN total > 0 AND validated >= total THEN 'terminee'
    WHEN today < debut THEN 'non_demarree'
    WHEN today > fin THEN 'en_retard'
    WHEN today - coalesce(last_suivi, debut) > 90 THEN 'sans_suivi'
    WHEN (CASE WHEN total > 0 THEN least(1, progress_sum / total) ELSE 0 END)::float8
      < (today - debut + 1)::float8 / (fin - debut + 1) - 0.25::float8 THEN 'a_risque'
    ELSE 'dans_les_temps' END
$$;
--> statement-breakpoint
CREATE FUNCTION "portfolio_status_rank"(status text) RETURNS smallint LANGUAGE sql IMMUTABLE AS $$
  SELECT (CASE status WHEN 'en_retard' THEN 0 WHEN 'sans_suivi' THEN 1 WHEN 'a_risque' THEN 2
    WHEN 'dans_les_temps' THEN 3 WHEN 'non_demarree' THEN 4 ELSE 5 END)::smallint
$$;
--> statement-breakpoint
-- The last day the status computed for `today` surely holds: the day before the earliest date the rule could
-- answer otherwise (the start, the end, 91 days without follow-up, the day progress falls behind), taken a day
-- early where a division decides it. Too early only costs a recomputation; never too late.
CREATE FUNCTION "portfolio_status_until"(today date, debut date, fin date, total integer, validated integer, progress_sum double precision, last_suivi date)
RETURNS date LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE portfolio_status(today, debut, fin, total, validated, progress_sum, last_suivi)
    WHEN 'terminee' THEN NULL
    WHEN 'en_retard' THEN NULL
    WHEN 'non_demarree' THEN debut - 1
    WHEN 'sans_suivi' THEN fin
    WHEN 'a_risque' THEN least(fin, coalesce(last_suivi, debut) + 90)
    ELSE least(
      fin,
      coalesce(last_suivi, debut) + 90,
      greatest(today, debut - 3 + floor(((CASE WHEN total > 0 THEN least(1, progress_sum / total) ELSE 0 END) + 0.25) * (fin - debut + 1))::integer)
    ) END
$$;
--> statement-breakpoint
-- Recomputes the rows of the given reforms from their data. The rows are locked first, in id order: a concurrent
-- writer of the same reform waits, and the recomputation that follows (a new statement, hence a new snapshot
-- under READ COMMITTED) sees what it committed.
CREATE FUNCTION "reforme_progress_refresh"(ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  today date := (now() AT TIME ZONE 'UTC')::date;
BEGIN
  PERFORM 1 FROM "reforme_progress" p WHERE p.reforme_id = ANY(ids) ORDER BY p.reforme_id FOR UPDATE;
  INSERT INTO "reforme_progress" AS p ("reforme_id", "is_active", "structure_id", "nature_id", "typeref", "etat_mor", "date_debut", "date_fin",
      "results_total", "results_validated", "progress_sum", "last_suivi_date", "status", "status_rank", "status_until")
    SELECT s.*, portfolio_status_rank(s.status),
      portfolio_status_until(today, s.date_debut, s.date_fin, s.results_total, s.results_validated, s.progress_sum, s.last_suivi_date)
    FROM (
      SELECT t.*, portfolio_status(today, t.date_debut, t.date_fin, t.results_total, t.results_validated, t.progress_sum, t.last_suivi_date) AS status
      FROM (
        SELECT r.id, r.is_active, r.structure_id, r.nature_id, r.typeref, r.etat_mor, r.date_debut, r.date_fin,
          count(res.id)::int AS results_total,
          (count(res.id) FILTER (WHERE res.status = 1))::int AS results_validated,
          coalesce(sum(CASE WHEN res.status = 1 THEN 1 ELSE least(1, greatest(0, coalesce(latest.taux_realisat, 0) / 100)) END), 0)::float8 AS progress_sum,
          max(latest.date) AS last_suivi_date
        FROM "reformes" r
        LEFT JOIN "objectifs" o ON o.reforme_id = r.id AND o.is_active
        LEFT JOIN "resultats" res ON res.objectif_id = o.id AND res.is_active
        LEFT JOIN LATERAL (
          SELECT s.taux_realisat, s.date FROM "suivi_results" s WHERE s.result_id = res.id ORDER BY s.date DESC, s.id DESC LIMIT 1
        ) latest ON true
        WHERE r.id = ANY(ids)
        GROUP BY r.id
      ) t
    ) s
    ORDER BY s.id
  ON CONFLICT ("reforme_id") DO UPDATE SET
    is_active = excluded.is_active, structure_id = excluded.structure_id, nature_id = excluded.nature_id, typeref = excluded.typeref,
    etat_mor = excluded.etat_mor, date_debut = excluded.date_debut, date_fin = excluded.date_fin,
    results_total = excluded.results_total, results_validated = excluded.results_validated, progress_sum = excluded.progress_sum,
    last_suivi_date = excluded.last_suivi_date, status = excluded.status, status_rank = excluded.status_rank, status_until = excluded.status_until;
END $$;
--> statement-breakpoint
-- The rows whose status may have changed since their day passed, recomputed for `today` (a few per day).
CREATE FUNCTION "portfolio_refresh_due"(today date) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  changed integer;
BEGIN
  UPDATE "reforme_progress" p SET
    status = n.status, status_rank = portfolio_status_rank(n.status),
    status_until = portfolio_status_until(today, p.date_debut, p.date_fin, p.results_total, p.results_validated, p.progress_sum, p.last_suivi_date)
  FROM (
    SELECT q.reforme_id, portfolio_status(today, q.date_debut, q.date_fin, q.results_total, q.results_validated, q.progress_sum, q.last_suivi_date) AS status
    FROM "reforme_progress" q WHERE q.status_until < today ORDER BY q.reforme_id FOR UPDATE
  ) n
  WHERE p.reforme_id = n.reforme_id AND p.status_until < today;
  GET DIAGNOSTICS changed = ROW_COUNT;
  RETURN changed;
END $$;
--> statement-breakpoint
CREATE FUNCTION "reforme_progress_of_reformes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "reforme_progress_refresh"(array(SELECT id FROM new_rows));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "reforme_progress_of_objectifs"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM "reforme_progress_refresh"(array(SELECT DISTINCT reforme_id FROM old_rows));
  ELSE
    PERFORM "reforme_progress_refresh"(array(SELECT reforme_id FROM old_rows UNION SELECT reforme_id FROM new_rows));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "reforme_progress_of_resultats"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "reforme_progress_refresh"(array(SELECT DISTINCT o.reforme_id FROM new_rows n JOIN "objectifs" o ON o.id = n.objectif_id));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM "reforme_progress_refresh"(array(SELECT DISTINCT o.reforme_id FROM old_rows n JOIN "objectifs" o ON o.id = n.objectif_id));
  ELSE
    PERFORM "reforme_progress_refresh"(array(
      SELECT o.reforme_id FROM old_rows n JOIN "objectifs" o ON o.id = n.objectif_id
      UNION SELECT o.reforme_id FROM new_rows n JOIN "objectifs" o ON o.id = n.objectif_id));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "reforme_progress_of_suivi"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "reforme_progress_refresh"(array(
      SELECT DISTINCT o.reforme_id FROM new_rows n JOIN "resultats" r ON r.id = n.result_id JOIN "objectifs" o ON o.id = r.objectif_id));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM "reforme_progress_refresh"(array(
      SELECT DISTINCT o.reforme_id FROM old_rows n JOIN "resultats" r ON r.id = n.result_id JOIN "objectifs" o ON o.id = r.objectif_id));
  ELSE
    PERFORM "reforme_progress_refresh"(array(
      SELECT o.reforme_id FROM old_rows n JOIN "resultats" r ON r.id = n.result_id JOIN "objectifs" o ON o.id = r.objectif_id
      UNION SELECT o.reforme_id FROM new_rows n JOIN "resultats" r ON r.id = n.result_id JOIN "objectifs" o ON o.id = r.objectif_id));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "reforme_progress_reformes_insert" AFTER INSERT ON "reformes" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reforme_progress_of_reformes"();--> statement-breakpoint
CREATE TRIGGER "reforme_progress_reformes_update" AFTER UPDATE ON "reformes" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reforme_progress_of_reformes"();--> statement-breakpoint
CREATE TRIGGER "reforme_progress_objectifs_update" AFTER UPDATE ON "objectifs" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reforme_progress_of_objectifs"();--> statement-breakpoint
CREATE TRIGGER "reforme_progress_objectifs_delete" AFTER DELETE ON "objectifs" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reforme_progress_of_objectifs"();--> statement-breakpoint
CREATE TRIGGER "reforme_progress_resultats_insert" AFTER INSERT ON "resultats" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reforme_progress_of_resultats"();--> statement-breakpoint
CREATE TRIGGER "reforme_progress_resultats_update" AFTER UPDATE ON "resultats" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reforme_progress_of_resultats"();--> statement-breakpoint
CREATE TRIGGER "reforme_progress_resultats_delete" AFTER DELETE ON "resultats" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reforme_progress_of_resultats"();--> statement-breakpoint
CREATE TRIGGER "reforme_progress_suivi_insert" AFTER INSERT ON "suivi_results" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reforme_progress_of_suivi"();--> statement-breakpoint
CREATE TRIGGER "reforme_progress_suivi_update" AFTER UPDATE ON "suivi_results" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reforme_progress_of_suivi"();--> statement-breakpoint
CREATE TRIGGER "reforme_progress_suivi_delete" AFTER DELETE ON "suivi_results" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reforme_progress_of_suivi"();--> statement-breakpoint
-- The portfolio's counters: reforms by the columns the overview filters on and by status, kept by statement
-- triggers on reforme_progress as reforme_counts is on reformes (0002): a count is a sum over a few hundred rows.
CREATE TABLE "portfolio_counts" (
	"structure_id" integer NOT NULL,
	"nature_id" integer NOT NULL,
	"typeref" text NOT NULL,
	"etat_mor" text NOT NULL,
	"status" text NOT NULL,
	"is_active" boolean NOT NULL,
	"total" integer NOT NULL,
	CONSTRAINT "portfolio_counts_pk" PRIMARY KEY("structure_id","nature_id","typeref","etat_mor","status","is_active")
);
--> statement-breakpoint
-- One upsert per statement, old rows -1 and new rows +1, in key order (no deadlock between two writers).
CREATE FUNCTION "portfolio_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "portfolio_counts" AS c
      SELECT structure_id, nature_id, typeref, coalesce(etat_mor, ''), status, is_active, count(*)::int
      FROM new_rows GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT ("structure_id", "nature_id", "typeref", "etat_mor", "status", "is_active")
      DO UPDATE SET total = c.total + excluded.total;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "portfolio_counts" AS c
      SELECT structure_id, nature_id, typeref, coalesce(etat_mor, ''), status, is_active, -count(*)::int
      FROM old_rows GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT ("structure_id", "nature_id", "typeref", "etat_mor", "status", "is_active")
      DO UPDATE SET total = c.total + excluded.total;
  ELSE
    INSERT INTO "portfolio_counts" AS c
      SELECT structure_id, nature_id, typeref, etat, status, is_active, sum(delta)::int FROM (
        SELECT structure_id, nature_id, typeref, coalesce(etat_mor, '') AS etat, status, is_active, -1 AS delta FROM old_rows
        UNION ALL
        SELECT structure_id, nature_id, typeref, coalesce(etat_mor, ''), status, is_active, 1 FROM new_rows
      ) AS changes
      GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT ("structure_id", "nature_id", "typeref", "etat_mor", "status", "is_active")
      DO UPDATE SET total = c.total + excluded.total;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Reforms that exist before this migration get their row now; new ones get it from the insert trigger.
SELECT "reforme_progress_refresh"(array(SELECT id FROM "reformes"));--> statement-breakpoint
INSERT INTO "portfolio_counts"
  SELECT structure_id, nature_id, typeref, coalesce(etat_mor, ''), status, is_active, count(*)::int
  FROM "reforme_progress" GROUP BY 1, 2, 3, 4, 5, 6;--> statement-breakpoint
CREATE TRIGGER "portfolio_counts_insert" AFTER INSERT ON "reforme_progress" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "portfolio_counts_apply"();--> statement-breakpoint
CREATE TRIGGER "portfolio_counts_update" AFTER UPDATE ON "reforme_progress" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "portfolio_counts_apply"();--> statement-breakpoint
CREATE TRIGGER "portfolio_counts_delete" AFTER DELETE ON "reforme_progress" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "portfolio_counts_apply"();
