-- Security audit log (issue 14): who did what, to what, with which result, when and from where.
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" integer,
	"actor_email" text,
	"action" text NOT NULL,
	"target_type" text,
	"target_id" integer,
	"target_label" text,
	"result" text NOT NULL,
	"ip" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"search_text" text GENERATED ALWAYS AS (translate(lower(coalesce("audit_log"."actor_email", '') || ' ' || coalesce("audit_log"."target_label", '') || ' ' || coalesce("audit_log"."ip", '') || ' ' || "audit_log"."action"), 'àáâãäåçèéêëìíîïñòóôõöùúûüýÿ', 'aaaaaaceeeeiiiinooooouuuuyy')) STORED,
	CONSTRAINT "audit_log_result_check" CHECK ("audit_log"."result" in ('success', 'failure'))
);
--> statement-breakpoint
CREATE INDEX "audit_log_created_idx" ON "audit_log" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "audit_log" USING btree ("action","created_at","id");--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_id","created_at","id");--> statement-breakpoint
CREATE INDEX "audit_log_actor_email_trgm_idx" ON "audit_log" USING gin (lower("actor_email") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "audit_log_search_trgm_idx" ON "audit_log" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
-- The "audit" feature and its right for the admin role. The seed grants it on a fresh database (it runs after
-- this migration, which then finds no role); on an existing one only this right is added, to the admin role.
INSERT INTO "features" ("name", "link", "tag")
  SELECT 'audit', '/admin/audit', 'Journal d''audit' WHERE EXISTS (SELECT 1 FROM "roles")
  ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "permissions" ("name", "feature_id", "action")
  SELECT 'audit.list', "features"."id", 'list' FROM "features" WHERE "features"."name" = 'audit'
  ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "role_permissions" ("role_id", "permission_id")
  SELECT "roles"."id", "permissions"."id" FROM "roles", "permissions"
  WHERE "roles"."name" = 'admin' AND "permissions"."name" = 'audit.list'
  ON CONFLICT DO NOTHING;--> statement-breakpoint
-- Its menu entry ("windows" of the roles screen), last of admin's "Habilitations" group, as the seed makes it.
INSERT INTO "menus" ("parent_id", "name", "route", "title", "position")
  SELECT "group"."id", 'Journal d''audit', '/admin/audit', false, (SELECT max("position") + 1 FROM "menus")
  FROM "menus" AS "group"
  WHERE "group"."name" = 'Habilitations' AND "group"."parent_id" IS NULL
    AND NOT EXISTS (SELECT 1 FROM "menus" WHERE "route" = '/admin/audit');--> statement-breakpoint
INSERT INTO "role_windows" ("role_id", "menu_id", "position")
  SELECT "roles"."id", "entry"."id", coalesce((
    SELECT max("role_windows"."position") FROM "role_windows"
    JOIN "menus" ON "menus"."id" = "role_windows"."menu_id"
    WHERE "role_windows"."role_id" = "roles"."id" AND "menus"."parent_id" = "entry"."parent_id"), 0)
  FROM "roles", "menus" AS "entry"
  WHERE "roles"."name" = 'admin' AND "entry"."route" = '/admin/audit'
    AND EXISTS (SELECT 1 FROM "role_windows" WHERE "role_windows"."role_id" = "roles"."id" AND "role_windows"."menu_id" = "entry"."parent_id")
  ON CONFLICT DO NOTHING;
