CREATE TABLE "reforme_counts" (
	"structure_id" integer NOT NULL,
	"nature_id" integer NOT NULL,
	"couverture_id" integer NOT NULL,
	"typeref" text NOT NULL,
	"etat_mor" text NOT NULL,
	"stage" smallint NOT NULL,
	"is_published" boolean NOT NULL,
	"is_active" boolean NOT NULL,
	"total" integer NOT NULL,
	CONSTRAINT "reforme_counts_pk" PRIMARY KEY("structure_id","nature_id","couverture_id","typeref","etat_mor","stage","is_published","is_active")
);
--> statement-breakpoint
-- One upsert per statement, old rows counted -1 and new rows +1 in one pass, in key order: a transition
-- takes its counter locks in a fixed order, so two concurrent transitions cannot deadlock on them.
CREATE FUNCTION "reforme_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "reforme_counts" AS c
      SELECT structure_id, nature_id, couverture_id, typeref, coalesce(etat_mor, ''), stage, is_published, is_active, count(*)::int
      FROM new_rows GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
    ON CONFLICT ("structure_id", "nature_id", "couverture_id", "typeref", "etat_mor", "stage", "is_published", "is_active")
      DO UPDATE SET total = c.total + excluded.total;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "reforme_counts" AS c
      SELECT structure_id, nature_id, couverture_id, typeref, coalesce(etat_mor, ''), stage, is_published, is_active, -count(*)::int
      FROM old_rows GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
    ON CONFLICT ("structure_id", "nature_id", "couverture_id", "typeref", "etat_mor", "stage", "is_published", "is_active")
      DO UPDATE SET total = c.total + excluded.total;
  ELSE
    INSERT INTO "reforme_counts" AS c
      SELECT structure_id, nature_id, couverture_id, typeref, etat, stage, is_published, is_active, sum(delta)::int FROM (
        SELECT structure_id, nature_id, couverture_id, typeref, coalesce(etat_mor, '') AS etat, stage, is_published, is_active, -1 AS delta
        FROM old_rows
        UNION ALL
        SELECT structure_id, nature_id, couverture_id, typeref, coalesce(etat_mor, ''), stage, is_published, is_active, 1 FROM new_rows
      ) AS changes
      GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
    ON CONFLICT ("structure_id", "nature_id", "couverture_id", "typeref", "etat_mor", "stage", "is_published", "is_active")
      DO UPDATE SET total = c.total + excluded.total;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "reforme_counts_insert" AFTER INSERT ON "reformes" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reforme_counts_apply"();--> statement-breakpoint
CREATE TRIGGER "reforme_counts_update" AFTER UPDATE ON "reformes" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reforme_counts_apply"();--> statement-breakpoint
CREATE TRIGGER "reforme_counts_delete" AFTER DELETE ON "reformes" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reforme_counts_apply"();--> statement-breakpoint
INSERT INTO "reforme_counts"
  SELECT structure_id, nature_id, couverture_id, typeref, coalesce(etat_mor, ''), stage, is_published, is_active, count(*)::int
  FROM "reformes" GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;
