-- Objectives and expected results are activated and deactivated (spec §4) by the roles that manage them.
-- The seed grants objectifs.status and resultats.status on a fresh database (it runs after this migration,
-- which then finds no feature); on an existing one the role grants belong to the administrators, so only
-- these two rights are added: to each role holding the matching edit right, as active as that right.
INSERT INTO "permissions" ("name", "feature_id", "action")
  SELECT "features"."name" || '.status', "features"."id", 'status' FROM "features" WHERE "features"."name" IN ('objectifs', 'resultats')
  ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "role_permissions" ("role_id", "permission_id", "is_active")
  SELECT "granted"."role_id", "status_right"."id", "granted"."is_active"
  FROM "role_permissions" AS "granted"
  JOIN "permissions" AS "edit_right" ON "edit_right"."id" = "granted"."permission_id" AND "edit_right"."action" = 'edit'
  JOIN "features" ON "features"."id" = "edit_right"."feature_id" AND "features"."name" IN ('objectifs', 'resultats')
  JOIN "permissions" AS "status_right" ON "status_right"."feature_id" = "edit_right"."feature_id" AND "status_right"."action" = 'status'
  ON CONFLICT DO NOTHING;
