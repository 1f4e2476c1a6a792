-- Failed mails and jobs (issue 31) get a screen, "Courriels et tâches", and a right of its own, "jobs" (list, edit),
-- for the admin role. The seed grants it on a fresh database (it runs after this migration, which then finds no role);
-- on an existing one the feature, its two permissions, their grant to admin and the menu entry are added here.
INSERT INTO "features" ("name", "link", "tag")
  SELECT 'jobs', '/admin/jobs', 'Courriels et tâches' WHERE EXISTS (SELECT 1 FROM "roles")
  ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "permissions" ("name", "feature_id", "action")
  SELECT 'jobs.' || "action"."name", "features"."id", "action"."name"
  FROM "features", (VALUES ('list'), ('edit')) AS "action" ("name")
  WHERE "features"."name" = 'jobs'
  ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "role_permissions" ("role_id", "permission_id")
  SELECT "roles"."id", "permissions"."id" FROM "roles", "permissions"
  WHERE "roles"."name" = 'admin' AND "permissions"."name" IN ('jobs.list', 'jobs.edit')
  ON CONFLICT DO NOTHING;--> statement-breakpoint
-- Its menu entry ("windows" of the roles screen), last of admin's "Habilitations" group, as the seed makes it.
INSERT INTO "menus" ("parent_id", "name", "route", "title", "position")
  SELECT "group"."id", 'Courriels et tâches', '/admin/jobs', false, (SELECT max("position") + 1 FROM "menus")
  FROM "menus" AS "group"
  WHERE "group"."name" = 'Habilitations' AND "group"."parent_id" IS NULL
    AND NOT EXISTS (SELECT 1 FROM "menus" WHERE "route" = '/admin/jobs');--> statement-breakpoint
INSERT INTO "role_windows" ("role_id", "menu_id", "position")
  SELECT "roles"."id", "entry"."id", coalesce((
    SELECT max("role_windows"."position") FROM "role_windows"
    JOIN "menus" ON "menus"."id" = "role_windows"."menu_id"
    WHERE "role_windows"."role_id" = "roles"."id" AND "menus"."parent_id" = "entry"."parent_id"), 0)
  FROM "roles", "menus" AS "entry"
  WHERE "roles"."name" = 'admin' AND "entry"."route" = '/admin/jobs'
    AND EXISTS (SELECT 1 FROM "role_windows" WHERE "role_windows"."role_id" = "roles"."id" AND "role_windows"."menu_id" = "entry"."parent_id")
  ON CONFLICT DO NOTHING;
