-- The import of reforms (issue 17) becomes a right of its own, "reformes-import.add", which an admin can take from a
-- role (issue 29: it was granted by the role's name). The seed grants it on a fresh database; on an existing one the
-- right is added and given to the roles that imported until now, admin and saisie central.
INSERT INTO "features" ("name", "link", "tag")
  SELECT 'reformes-import', '/admin/import-reformes', 'Import de réformes' WHERE EXISTS (SELECT 1 FROM "roles")
  ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "permissions" ("name", "feature_id", "action")
  SELECT 'reformes-import.add', "features"."id", 'add' FROM "features" WHERE "features"."name" = 'reformes-import'
  ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "role_permissions" ("role_id", "permission_id")
  SELECT "roles"."id", "permissions"."id" FROM "roles", "permissions"
  WHERE "roles"."name" IN ('admin', 'saisie central') AND "permissions"."name" = 'reformes-import.add'
  ON CONFLICT DO NOTHING;
