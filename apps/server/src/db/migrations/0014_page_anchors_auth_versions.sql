-- Issue 33. (1) A number that moves on every change of reforme_progress, as reformes_version does for reformes
-- (0003): the portfolio keeps where its pages start (modules/reformes/page-anchors.ts) while it has not moved. Only
-- statements that changed rows move it: the portfolio runs portfolio_refresh_due, an UPDATE that usually changes
-- nothing, before every read.
CREATE SEQUENCE IF NOT EXISTS "reforme_progress_version";--> statement-breakpoint
CREATE FUNCTION "reforme_progress_version_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF EXISTS (SELECT 1 FROM old_rows) THEN PERFORM nextval('reforme_progress_version'); END IF;
  ELSIF EXISTS (SELECT 1 FROM new_rows) THEN
    PERFORM nextval('reforme_progress_version');
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "reforme_progress_version_insert" AFTER INSERT ON "reforme_progress" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reforme_progress_version_bump"();--> statement-breakpoint
CREATE TRIGGER "reforme_progress_version_update" AFTER UPDATE ON "reforme_progress" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reforme_progress_version_bump"();--> statement-breakpoint
CREATE TRIGGER "reforme_progress_version_delete" AFTER DELETE ON "reforme_progress" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "reforme_progress_version_bump"();--> statement-breakpoint
-- The statuses whose day has passed recomputed for `today`, then the version: one round trip before each read.
CREATE FUNCTION "portfolio_prepare"(today date) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  PERFORM portfolio_refresh_due(today);
  RETURN (SELECT last_value::text || ':' || is_called::text FROM "reforme_progress_version");
END $$;--> statement-breakpoint
-- (2) Per user, a number that moves whenever what the guard loads for that user may change: the account (blocked,
-- temporary password, structure, second factor), its roles, their rights, a revoked session. The guard keeps what it
-- loaded while the number has not moved, and checks it on every request with one primary-key lookup; rows are
-- written by the triggers below only, in the writing transaction, so the next request on any instance sees it.
CREATE TABLE "auth_versions" (
	"user_id" integer PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"version" bigint DEFAULT 0 NOT NULL
);--> statement-breakpoint
-- Users are locked in id order (no deadlock between two writers); users being deleted are skipped.
CREATE FUNCTION "auth_versions_bump"(ids integer[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "auth_versions" AS a ("user_id", "version")
    SELECT u.id, 1 FROM "users" u WHERE u.id = ANY(ids) ORDER BY u.id
  ON CONFLICT ("user_id") DO UPDATE SET "version" = a."version" + 1
$$;--> statement-breakpoint
CREATE FUNCTION "auth_versions_of_users"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM auth_versions_bump(array(SELECT id FROM new_rows));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "auth_versions_of_user_roles"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM auth_versions_bump(array(SELECT user_id FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM auth_versions_bump(array(SELECT user_id FROM old_rows));
  ELSE
    PERFORM auth_versions_bump(array(SELECT user_id FROM old_rows UNION SELECT user_id FROM new_rows));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- A role changed (name, active, second factor required) or gone: its users.
CREATE FUNCTION "auth_versions_of_roles"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM auth_versions_bump(array(SELECT ur.user_id FROM "user_roles" ur WHERE ur.role_id IN (SELECT id FROM old_rows)));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "auth_versions_of_role_permissions"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM auth_versions_bump(array(SELECT ur.user_id FROM "user_roles" ur WHERE ur.role_id IN (SELECT role_id FROM new_rows)));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM auth_versions_bump(array(SELECT ur.user_id FROM "user_roles" ur WHERE ur.role_id IN (SELECT role_id FROM old_rows)));
  ELSE
    PERFORM auth_versions_bump(array(SELECT ur.user_id FROM "user_roles" ur
      WHERE ur.role_id IN (SELECT role_id FROM old_rows UNION SELECT role_id FROM new_rows)));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- A permission renamed, switched off or removed: rare enough to move every user with a role.
CREATE FUNCTION "auth_versions_of_permissions"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM auth_versions_bump(array(SELECT DISTINCT user_id FROM "user_roles"));
  RETURN NULL;
END $$;--> statement-breakpoint
-- A session revoked (logout, reuse of a rotated token, password change) or a token deleted; a rotation does not count.
CREATE FUNCTION "auth_versions_of_refresh_tokens"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM auth_versions_bump(array(SELECT user_id FROM old_rows));
  ELSE
    PERFORM auth_versions_bump(array(
      SELECT n.user_id FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (o.revoked_at IS NULL) <> (n.revoked_at IS NULL) OR o.expires_at <> n.expires_at OR o.user_id <> n.user_id
        OR o.family_id <> n.family_id));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "auth_versions_users_update" AFTER UPDATE ON "users" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "auth_versions_of_users"();--> statement-breakpoint
CREATE TRIGGER "auth_versions_user_roles_insert" AFTER INSERT ON "user_roles" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "auth_versions_of_user_roles"();--> statement-breakpoint
CREATE TRIGGER "auth_versions_user_roles_update" AFTER UPDATE ON "user_roles" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "auth_versions_of_user_roles"();--> statement-breakpoint
CREATE TRIGGER "auth_versions_user_roles_delete" AFTER DELETE ON "user_roles" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "auth_versions_of_user_roles"();--> statement-breakpoint
CREATE TRIGGER "auth_versions_roles_update" AFTER UPDATE ON "roles" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "auth_versions_of_roles"();--> statement-breakpoint
CREATE TRIGGER "auth_versions_roles_delete" AFTER DELETE ON "roles" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "auth_versions_of_roles"();--> statement-breakpoint
CREATE TRIGGER "auth_versions_role_permissions_insert" AFTER INSERT ON "role_permissions" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "auth_versions_of_role_permissions"();--> statement-breakpoint
CREATE TRIGGER "auth_versions_role_permissions_update" AFTER UPDATE ON "role_permissions" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "auth_versions_of_role_permissions"();--> statement-breakpoint
CREATE TRIGGER "auth_versions_role_permissions_delete" AFTER DELETE ON "role_permissions" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "auth_versions_of_role_permissions"();--> statement-breakpoint
CREATE TRIGGER "auth_versions_permissions_update" AFTER UPDATE ON "permissions"
  FOR EACH STATEMENT EXECUTE FUNCTION "auth_versions_of_permissions"();--> statement-breakpoint
CREATE TRIGGER "auth_versions_permissions_delete" AFTER DELETE ON "permissions"
  FOR EACH STATEMENT EXECUTE FUNCTION "auth_versions_of_permissions"();--> statement-breakpoint
CREATE TRIGGER "auth_versions_refresh_tokens_update" AFTER UPDATE ON "refresh_tokens" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "auth_versions_of_refresh_tokens"();--> statement-breakpoint
CREATE TRIGGER "auth_versions_refresh_tokens_delete" AFTER DELETE ON "refresh_tokens" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "auth_versions_of_refresh_tokens"();
