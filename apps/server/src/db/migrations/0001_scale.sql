-- Trigram index for "contains" searches (PostgreSQL contrib; PGlite loads the same extension).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX "reformes_structure_stage_idx";--> statement-breakpoint
DROP INDEX "reformes_created_by_idx";--> statement-breakpoint
ALTER TABLE "reformes" drop column "search_text";--> statement-breakpoint
ALTER TABLE "reformes" ADD COLUMN "search_text" text GENERATED ALWAYS AS (translate(lower("reformes"."libref" || ' ' || "reformes"."typeref" || ' ' || "reformes"."periodexe" || ' ' || replace(coalesce("reformes"."etat_mor", ''), '_', ' ') || ' ' || "reformes"."objectif_glob" || ' ' || "reformes"."popul_cible" || ' ' || "reformes"."struct_impl"), 'àáâãäåçèéêëìíîïñòóôõöùúûüýÿ', 'aaaaaaceeeeiiiinooooouuuuyy') || ' ' || extract(year from "reformes"."date_debut")::text || '-' || lpad(extract(month from "reformes"."date_debut")::text, 2, '0') || '-' || lpad(extract(day from "reformes"."date_debut")::text, 2, '0') || ' ' || extract(year from "reformes"."date_fin")::text || '-' || lpad(extract(month from "reformes"."date_fin")::text, 2, '0') || '-' || lpad(extract(day from "reformes"."date_fin")::text, 2, '0')) STORED;--> statement-breakpoint
ALTER TABLE "natures" ADD COLUMN "code" text;--> statement-breakpoint
CREATE INDEX "reformes_structure_date_idx" ON "reformes" USING btree ("structure_id","date_enreg","id");--> statement-breakpoint
CREATE INDEX "reformes_stage_idx" ON "reformes" USING btree ("stage","is_published","date_enreg","id");--> statement-breakpoint
CREATE INDEX "reformes_search_trgm_idx" ON "reformes" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "reformes_structure_stage_idx" ON "reformes" USING btree ("structure_id","stage","is_published","date_enreg","id");--> statement-breakpoint
CREATE INDEX "reformes_created_by_idx" ON "reformes" USING btree ("created_by","date_enreg","id");--> statement-breakpoint
ALTER TABLE "natures" ADD CONSTRAINT "natures_code_unique" UNIQUE("code");--> statement-breakpoint
-- Natures seeded before codes existed get theirs (the labels of NATURES in packages/domain).
UPDATE "natures" SET "code" = lower("libnature") WHERE "libnature" IN ('Administrative', 'Institutionnelle', 'Structurelle') AND "code" IS NULL;